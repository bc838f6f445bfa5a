-- Skill ratings (storage/ratings.py), as SQLite's migration 0007: written in the transaction that finishes a
-- game; `python -m bot ratings --recompute` checks them against a recomputation from the stored games.

CREATE TABLE rated_games (
    game_id   BIGINT  PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    seq       BIGINT  NOT NULL UNIQUE,
    kind      TEXT    NOT NULL,
    guild_id  BIGINT,
    season    TEXT    NOT NULL,
    rated_at  DOUBLE PRECISION NOT NULL
);

CREATE TABLE rating_changes (
    game_id       BIGINT  NOT NULL REFERENCES rated_games (game_id) ON DELETE CASCADE,
    scope         TEXT    NOT NULL,
    user_id       BIGINT  NOT NULL,
    seat          INTEGER NOT NULL,
    place         INTEGER NOT NULL,
    mu_before     DOUBLE PRECISION,
    sigma_before  DOUBLE PRECISION,
    mu_after      DOUBLE PRECISION NOT NULL,
    sigma_after   DOUBLE PRECISION NOT NULL,
    games         INTEGER NOT NULL,
    PRIMARY KEY (game_id, scope, user_id)
);

CREATE TABLE ratings (
    kind       TEXT    NOT NULL,
    scope      TEXT    NOT NULL,
    user_id    BIGINT  NOT NULL,
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL,
    games      INTEGER NOT NULL,
    last_game  BIGINT  NOT NULL,
    PRIMARY KEY (kind, scope, user_id)
);
CREATE INDEX ratings_board ON ratings (kind, scope, mu DESC, user_id) INCLUDE (games, sigma);
