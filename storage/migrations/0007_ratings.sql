-- Skill ratings (storage/ratings.py): written in the transaction that finishes a game, never recomputed in
-- place; `python -m bot ratings --recompute` checks them against a recomputation from the stored games.
-- Games finished before this migration are not rated: ratings start with it.

-- The ledger: one row per rated game; seq is the order games were rated in (a recompute replays that order).
CREATE TABLE rated_games (
    game_id   INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL UNIQUE,
    kind      TEXT    NOT NULL,
    guild_id  INTEGER,
    -- the season the game counted in ('2026-12' or '2026-Q4': the server's choice when it finished)
    season    TEXT    NOT NULL,
    rated_at  REAL    NOT NULL
);

-- Each rated player's rating before and after one game, per scope ('server:<guild>', 'global',
-- 'season:<guild>:<season>'); before is NULL for a first game in that scope.
CREATE TABLE rating_changes (
    game_id       INTEGER NOT NULL REFERENCES rated_games (game_id) ON DELETE CASCADE,
    scope         TEXT    NOT NULL,
    user_id       INTEGER NOT NULL,
    seat          INTEGER NOT NULL,
    place         INTEGER NOT NULL,
    mu_before     REAL,
    sigma_before  REAL,
    mu_after      REAL    NOT NULL,
    sigma_after   REAL    NOT NULL,
    games         INTEGER NOT NULL,
    PRIMARY KEY (game_id, scope, user_id)
) WITHOUT ROWID;

-- The current rating per game kind, scope and player.
CREATE TABLE ratings (
    kind       TEXT    NOT NULL,
    scope      TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    games      INTEGER NOT NULL,
    last_game  INTEGER NOT NULL,
    PRIMARY KEY (kind, scope, user_id)
) WITHOUT ROWID;
-- The leaderboard by rating: an ordered range (covering), whatever the number of games behind it.
CREATE INDEX ratings_board ON ratings (kind, scope, mu DESC, user_id, games, sigma);
