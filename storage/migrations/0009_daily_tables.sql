-- Daily tables (issue 38, point 4) and the daily summary switch of /notify (point 5).
-- The reminders of a daily table's step already sent (half time, near the deadline): claimed here before the DM
-- goes out, so a restart, or another shard process, never sends one twice (at most once per step and slot).
CREATE TABLE reminders_sent (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    phase    INTEGER NOT NULL,
    slot     TEXT    NOT NULL,
    sent_at  REAL    NOT NULL,
    PRIMARY KEY (game_id, phase, slot)
);

-- /notify summary: one DM a day listing the tables waiting for the player; on by default. Each day's summary of a
-- player is claimed here before it goes out, as the reminders are: one a day, whatever the restarts and processes.
CREATE TABLE summaries_sent (
    user_id  INTEGER NOT NULL,
    day      TEXT NOT NULL,
    sent_at  REAL NOT NULL,
    PRIMARY KEY (user_id, day)
);
ALTER TABLE user_notify ADD COLUMN summary INTEGER NOT NULL DEFAULT 1 CHECK (summary IN (0, 1));
