-- Server-side sessions (SESSION_DRIVER=database; docs/sessions.md "Drivers").
-- One row per session; the cookie holds only the encrypted id.
CREATE TABLE bindery_sessions (
  id text PRIMARY KEY,
  data jsonb NOT NULL,
  user_id text,
  started_at timestamptz NOT NULL,
  last_used_at timestamptz NOT NULL
);

CREATE INDEX bindery_sessions_last_used_at_idx ON bindery_sessions (last_used_at);
CREATE INDEX bindery_sessions_started_at_idx ON bindery_sessions (started_at);
CREATE INDEX bindery_sessions_user_id_idx ON bindery_sessions (user_id) WHERE user_id IS NOT NULL;
