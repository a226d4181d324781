-- The cache of the database driver (CACHE_DRIVER=database; docs/auth.md "The cache").
-- One row per key; expires_at in milliseconds since the epoch. Counters
-- (login throttling, rate limits) are JSON numbers incremented in place.
CREATE TABLE bindery_cache (
  key text PRIMARY KEY,
  value jsonb NOT NULL,
  expires_at bigint NOT NULL
);

CREATE INDEX bindery_cache_expires_at_idx ON bindery_cache (expires_at);
