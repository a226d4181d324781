-- Worker heartbeats (docs/jobs.md "When a worker dies"), on MySQL and
-- MariaDB: one row per running worker process, renewed every
-- JOBS_HEARTBEAT_INTERVAL with the IDs its queue backend locks jobs under
-- (the MySQL queue: its worker's lock ID), kept as a JSON list. A row older
-- than JOBS_WORKER_DEAD_AFTER belongs to a worker that died, and another
-- worker deletes it and unlocks that worker's jobs, which then run again.
-- seen_at is the database's clock, so the machines' clocks do not matter.
CREATE TABLE jobs_worker_heartbeats (
  id VARCHAR(64) NOT NULL PRIMARY KEY,
  backend VARCHAR(64) NOT NULL,
  lock_ids JSON NOT NULL,
  host VARCHAR(255) NOT NULL,
  pid INT NOT NULL,
  started_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  seen_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE INDEX jobs_worker_heartbeats_seen_at_idx ON jobs_worker_heartbeats (backend, seen_at);
