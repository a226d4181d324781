-- The lockout of wrong two-factor codes (docs/auth.md "Two-factor lockout"):
-- the wrong codes in a row at sign-in, per account, counted under the
-- password they were tried with, and how long codes are refused.
--
-- failed_codes: wrong codes at the login's second step since the last right one (or recovery code).
-- locked_until: until when codes are refused without being checked, ms since the epoch (the app's clock); null when not locked.
-- failures_fp: the fingerprint of the password hash the failures were counted under: a changed password starts a fresh count.
-- lockout_notified_at: when the owner was mailed about this lockout (once per lockout); null until then.
ALTER TABLE bindery_two_factor
  ADD COLUMN failed_codes INT NOT NULL DEFAULT 0,
  ADD COLUMN locked_until BIGINT NULL,
  ADD COLUMN failures_fp LONGTEXT NULL,
  ADD COLUMN lockout_notified_at DATETIME(6) NULL;
