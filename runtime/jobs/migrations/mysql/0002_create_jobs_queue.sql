-- The job queue on MySQL and MariaDB (docs/jobs.md "Queue backends"), a
-- database queue in the app's own database: what graphile-worker's schema
-- holds on PostgreSQL, which graphile-worker creates itself (so this file
-- has no PostgreSQL twin).
--
-- jobs_queue: one row per job until it succeeds. A worker claims a due job
-- with SELECT ... FOR UPDATE SKIP LOCKED in a short transaction, sets
-- locked_by (its lock ID) and locked_at and counts the attempt. Success
-- deletes the row. A failure unlocks it with last_error and run_at pushed
-- back by the backoff. A job whose attempts reached max_attempts stays as a
-- failed job. job_key is unique: queuing again with it replaces the waiting
-- job (revision counts the replacements, for the idempotency key).
CREATE TABLE jobs_queue (
  id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  task VARCHAR(255) NOT NULL,
  payload JSON NOT NULL,
  queue_name VARCHAR(255) NULL,
  run_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  priority INT NOT NULL DEFAULT 0,
  attempts INT NOT NULL DEFAULT 0,
  max_attempts INT NOT NULL DEFAULT 25,
  job_key VARCHAR(512) NULL,
  revision INT NOT NULL DEFAULT 0,
  last_error LONGTEXT NULL,
  locked_by VARCHAR(64) NULL,
  locked_at DATETIME(6) NULL,
  created_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  updated_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  CONSTRAINT jobs_queue_job_key_key UNIQUE (job_key),
  CONSTRAINT jobs_queue_attempts_check CHECK (attempts >= 0 AND max_attempts >= 1)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- The claim reads unlocked jobs in this order (lower priority first, then the
-- soonest due). The heartbeat's recovery finds a dead worker's jobs by locked_by.
CREATE INDEX jobs_queue_claim_idx ON jobs_queue (locked_by, priority, run_at, id);

-- jobs_queue_locks: one row per queue name (jobs of one queueName run one at
-- a time). The claim of a job with a queue name also locks its queue here.
-- The job's end, or the recovery of its dead worker, unlocks it.
CREATE TABLE jobs_queue_locks (
  queue_name VARCHAR(255) NOT NULL PRIMARY KEY,
  locked_by VARCHAR(64) NULL,
  locked_at DATETIME(6) NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE INDEX jobs_queue_locks_locked_by_idx ON jobs_queue_locks (locked_by);

-- jobs_cron_tasks: one row per scheduled task, with the last minute a
-- worker queued for it. A worker queues a minute's run only if its
-- conditional UPDATE moves last_execution forward to that minute, in the
-- transaction that inserts the job: each minute is queued once however many
-- workers run. known_since bounds the backfill of a task seen for the first time.
CREATE TABLE jobs_cron_tasks (
  task VARCHAR(255) NOT NULL PRIMARY KEY,
  known_since DATETIME(6) NOT NULL,
  last_execution DATETIME(6) NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
