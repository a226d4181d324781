-- The cache of the database driver (CACHE_DRIVER=database; docs/auth.md "The cache"), on MySQL and MariaDB.
-- One row per key (byte-exact: utf8mb4_bin); expires_at in milliseconds since the epoch. Counters
-- (login throttling, rate limits) are JSON numbers incremented in place. key is a reserved word: quoted.
CREATE TABLE bindery_cache (
  `key` VARCHAR(768) NOT NULL PRIMARY KEY,
  value JSON NOT NULL,
  expires_at BIGINT NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE INDEX bindery_cache_expires_at_idx ON bindery_cache (expires_at);
