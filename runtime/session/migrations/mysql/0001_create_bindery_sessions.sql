-- Server-side sessions (SESSION_DRIVER=database; docs/sessions.md "Drivers"), on MySQL and MariaDB.
-- One row per session; the cookie holds only the encrypted id. Times are UTC.
CREATE TABLE bindery_sessions (
  id VARCHAR(255) NOT NULL PRIMARY KEY,
  data JSON NOT NULL,
  user_id VARCHAR(255) NULL,
  started_at DATETIME(6) NOT NULL,
  last_used_at DATETIME(6) NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE INDEX bindery_sessions_last_used_at_idx ON bindery_sessions (last_used_at);
CREATE INDEX bindery_sessions_started_at_idx ON bindery_sessions (started_at);
-- No partial index on MySQL: every row is indexed (NULLs included).
CREATE INDEX bindery_sessions_user_id_idx ON bindery_sessions (user_id);
