-- What each player lets the bot do to reach them before a deadline (/notify), whatever the game and server:
-- a reminder by DM, and a mention in the channel where DMs are closed. No row: both on (the default).

CREATE TABLE user_notify (
    user_id  INTEGER PRIMARY KEY,
    dm       INTEGER NOT NULL DEFAULT 1 CHECK (dm IN (0, 1)),
    mention  INTEGER NOT NULL DEFAULT 1 CHECK (mention IN (0, 1))
);
