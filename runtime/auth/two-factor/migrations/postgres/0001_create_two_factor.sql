-- Two-factor authentication (docs/auth.md "Two-factor authentication"):
-- one row per account that enabled it, and its recovery codes.
CREATE TABLE bindery_two_factor (
  user_id text PRIMARY KEY,
  -- The TOTP secret, encrypted with APP_KEY (never stored in clear).
  secret text NOT NULL,
  -- Null until a first code confirmed the authenticator; only confirmed accounts are asked for codes at login.
  confirmed_at timestamptz,
  -- The time step of the last code accepted: a code is accepted once (no replay within its window).
  last_used_step bigint,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Single-use recovery codes, hashed (SHA-256); used_at is set when one is used.
CREATE TABLE bindery_recovery_codes (
  user_id text NOT NULL REFERENCES bindery_two_factor (user_id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  used_at timestamptz,
  PRIMARY KEY (user_id, code_hash)
);
