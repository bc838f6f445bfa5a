-- The single-instance lease becomes one row per shard: several processes may share a database, each with
-- its own shards (an unsharded process holds shard 0 of 1). A process refuses to start while a live holder
-- has one of its shards or runs another shard count; see storage/lease.py. The old row was only ever a
-- heartbeat of a running process: nothing to carry over.

DROP TABLE instance_lease;

CREATE TABLE shard_lease (
    shard        INTEGER PRIMARY KEY,
    shard_count  INTEGER NOT NULL CHECK (shard_count >= 1 AND shard >= 0 AND shard < shard_count),
    holder       TEXT    NOT NULL,
    pid          INTEGER NOT NULL,
    hostname     TEXT    NOT NULL,
    acquired_at  REAL    NOT NULL,
    heartbeat    REAL    NOT NULL
);
