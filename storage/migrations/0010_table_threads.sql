-- A table played in a thread (issue 36, point 1): the thread the bot started from the lobby message. The lobby and
-- the final result stay in the channel (channel_id); every turn message goes to the thread, and a command typed in
-- the thread finds the table by it. NULL: the table plays in its channel.
ALTER TABLE games ADD COLUMN thread_id INTEGER;
CREATE INDEX games_open_by_thread ON games (thread_id) WHERE thread_id IS NOT NULL AND status IN ('lobby', 'running');
