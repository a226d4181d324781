-- Passkeys (WebAuthn; docs/auth.md "Passkeys"): the credentials each account
-- registered, and the random user handle authenticators keep for it.
CREATE TABLE bindery_passkey_users (
  user_id text PRIMARY KEY,
  -- Random 32 bytes, base64url: what a usernameless sign-in returns as userHandle (never the account's ID).
  user_handle text NOT NULL UNIQUE
);

CREATE TABLE bindery_passkeys (
  -- The credential ID, base64url.
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES bindery_passkey_users (user_id) ON DELETE CASCADE,
  name text NOT NULL,
  public_key bytea NOT NULL,
  -- The authenticator's signature counter; a sign-in whose counter is not above it is refused (unless both are 0).
  counter bigint NOT NULL DEFAULT 0,
  transports text[] NOT NULL DEFAULT '{}',
  device_type text NOT NULL,
  backed_up boolean NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);

CREATE INDEX bindery_passkeys_user_id_idx ON bindery_passkeys (user_id);
