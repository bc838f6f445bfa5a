-- Games of any kind (The Number today; Binomial and Numeri later) share these tables.
-- Statements are separated by a semicolon at the end of a line: the migrator runs them one by one
-- inside a single transaction.

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE games (
    id                 INTEGER PRIMARY KEY,
    kind               TEXT    NOT NULL,
    guild_id           INTEGER,
    channel_id         INTEGER NOT NULL,
    host_id            INTEGER NOT NULL,
    status             TEXT    NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'cancelled')),
    options            TEXT    NOT NULL DEFAULT '{}',
    -- index of the current secret-choice phase (a turn, for The Number); doubles as a state version
    phase              INTEGER NOT NULL DEFAULT 0,
    deadline           REAL,
    lobby_message_id   INTEGER,
    status_message_id  INTEGER,
    -- last phase whose reveal was posted, so a reveal is posted once even across restarts
    announced_phase    INTEGER NOT NULL DEFAULT -1,
    end_reason         TEXT,
    created_at         REAL    NOT NULL,
    updated_at         REAL    NOT NULL
);

-- One open game per channel, enforced by the database itself.
CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id) WHERE status IN ('lobby', 'running');
CREATE INDEX games_by_status ON games (status);
CREATE INDEX games_by_guild_finished ON games (guild_id, status, updated_at);

CREATE TABLE seats (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    user_id    INTEGER,
    name       TEXT    NOT NULL,
    ai_level   TEXT,
    state      TEXT    NOT NULL DEFAULT 'seated' CHECK (state IN ('seated', 'left', 'kicked')),
    joined_at  REAL    NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX seats_by_user ON seats (user_id, state);

-- The append-only record of a game: every choice and every resolved phase, in order.
-- A game's state is rebuilt by folding these through the rules engine.
CREATE TABLE actions (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL,
    phase    INTEGER NOT NULL,
    kind     TEXT    NOT NULL,
    seat     INTEGER,
    payload  TEXT    NOT NULL DEFAULT '{}',
    at       REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
);
-- The database-level guard that makes resolving a phase happen exactly once.
CREATE UNIQUE INDEX actions_one_resolution_per_phase ON actions (game_id, phase) WHERE kind = 'resolve';
