-- Two-factor authentication (docs/auth.md "Two-factor authentication"), on
-- MySQL and MariaDB: one row per account that enabled it, and its recovery codes.
CREATE TABLE bindery_two_factor (
  user_id VARCHAR(255) NOT NULL PRIMARY KEY,
  -- The TOTP secret, encrypted with APP_KEY (never stored in clear).
  secret LONGTEXT NOT NULL,
  -- Null until a first code confirmed the authenticator; only confirmed accounts are asked for codes at login.
  confirmed_at DATETIME(6) NULL,
  -- The time step of the last code accepted: a code is accepted once (no replay within its window).
  last_used_step BIGINT NULL,
  created_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Single-use recovery codes, hashed (SHA-256); used_at is set when one is used.
CREATE TABLE bindery_recovery_codes (
  user_id VARCHAR(255) NOT NULL,
  code_hash VARCHAR(128) NOT NULL,
  used_at DATETIME(6) NULL,
  PRIMARY KEY (user_id, code_hash),
  CONSTRAINT bindery_recovery_codes_user_id_fkey FOREIGN KEY (user_id) REFERENCES bindery_two_factor (user_id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
