-- The lockout of wrong two-factor codes (docs/auth.md "Two-factor lockout"):
-- the wrong codes in a row at sign-in, per account, counted under the
-- password they were tried with, and how long codes are refused.
ALTER TABLE bindery_two_factor
  -- Wrong codes at the login's second step since the last right one (or recovery code).
  ADD COLUMN failed_codes integer NOT NULL DEFAULT 0,
  -- Until when codes are refused without being checked, ms since the epoch (the app's clock); null when not locked.
  ADD COLUMN locked_until bigint,
  -- The fingerprint of the password hash the failures were counted under: a changed password starts a fresh count.
  ADD COLUMN failures_fp text,
  -- When the owner was mailed about this lockout (once per lockout); null until then.
  ADD COLUMN lockout_notified_at timestamptz;
