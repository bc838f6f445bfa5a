-- The derived results cache becomes generic: one row per seat of a finished game of ANY kind, with the
-- game's own per-seat figures as JSON in "extra" (storage never reads them; the game's presenter does).
-- The cache is rebuildable by design (storage/stats.py): it is dropped here and refilled from the actions
-- log by the first refresh (the bot's start-up backfill, or any statistics read).

DROP INDEX IF EXISTS game_results_by_time;
DROP INDEX IF EXISTS game_results_by_player;
DROP TABLE game_results;

CREATE TABLE game_results (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL,
    kind         TEXT    NOT NULL,
    guild_id     INTEGER,
    user_id      INTEGER,
    -- the time of the game's last 'resolve' action
    finished_at  REAL    NOT NULL,
    final_score  INTEGER NOT NULL,
    won          INTEGER NOT NULL CHECK (won IN (0, 1)),
    extra        TEXT    NOT NULL DEFAULT '{}',
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;

-- Leaderboards of a period and the recent games of a server, per kind: a range of finished_at, covering.
CREATE INDEX game_results_by_time ON game_results (guild_id, kind, finished_at, user_id, won, final_score);
-- One player's games of a kind in a server (/<game> stats) and their latest name.
CREATE INDEX game_results_by_player ON game_results (guild_id, kind, user_id, finished_at);
