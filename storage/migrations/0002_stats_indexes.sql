-- Per-seat results of finished games, for /thenumber stats, leaderboard and history.
-- A DERIVED, REBUILDABLE CACHE, not a second record: every row is a pure function of a finished game's
-- seats and 'resolve' actions (which never change once the game is finished), filled by storage/stats.py
-- before any read that needs it and rebuildable from the actions log at any time (SQLiteStats.rebuild).
-- guild_id and finished_at (the time of the game's last 'resolve' action) are copied here so that a
-- leaderboard over 100,000 games is one covering-index range scan.

CREATE TABLE game_results (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL,
    guild_id     INTEGER,
    user_id      INTEGER,
    finished_at  REAL    NOT NULL,
    final_score  INTEGER NOT NULL,
    won          INTEGER NOT NULL CHECK (won IN (0, 1)),
    played       INTEGER NOT NULL,
    approved     INTEGER NOT NULL,
    -- the numbers this seat wrote, in turn order, comma separated (approved, eliminated and invalid ones)
    numbers      TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;

-- Leaderboards of a period and the recent games of a server: a range of finished_at, covering.
CREATE INDEX game_results_by_time ON game_results (guild_id, finished_at, user_id, won, final_score);
-- One player's games in a server (/thenumber stats) and their latest name.
CREATE INDEX game_results_by_player ON game_results (guild_id, user_id, finished_at);
