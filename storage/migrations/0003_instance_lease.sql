-- Which bot process works on this database: at most one row. A second process refuses to start while the
-- holder is alive (its pid on this host, or a recent heartbeat from another host); see storage/lease.py.

CREATE TABLE instance_lease (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    holder       TEXT    NOT NULL,
    pid          INTEGER NOT NULL,
    hostname     TEXT    NOT NULL,
    acquired_at  REAL    NOT NULL,
    heartbeat    REAL    NOT NULL
);
