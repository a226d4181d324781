-- Worker heartbeats (docs/jobs.md "When a worker dies"): one row per running
-- worker process, renewed every JOBS_HEARTBEAT_INTERVAL with the IDs its
-- queue backend locks jobs under (graphile-worker: its pool's ID). A row
-- older than JOBS_WORKER_DEAD_AFTER belongs to a worker that died; another
-- worker deletes it and unlocks that worker's jobs, which then run again.
-- seen_at is the database's clock, so the machines' clocks do not matter.
CREATE TABLE jobs_worker_heartbeats (
  id text PRIMARY KEY,
  backend text NOT NULL,
  lock_ids text[] NOT NULL DEFAULT '{}',
  host text NOT NULL,
  pid integer NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  seen_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX jobs_worker_heartbeats_seen_at_idx ON jobs_worker_heartbeats (backend, seen_at);
