-- A table played in a thread (issue 36, point 1), as SQLite's 0010: the thread the bot started from the lobby
-- message; NULL when the table plays in its channel.
ALTER TABLE games ADD COLUMN thread_id BIGINT;
CREATE INDEX games_open_by_thread ON games (thread_id) WHERE thread_id IS NOT NULL AND status IN ('lobby', 'running');
