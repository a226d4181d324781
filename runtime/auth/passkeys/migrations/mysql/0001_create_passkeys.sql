-- Passkeys (WebAuthn; docs/auth.md "Passkeys"), on MySQL and MariaDB: the
-- credentials each account registered, and the random user handle
-- authenticators keep for it.
CREATE TABLE bindery_passkey_users (
  user_id VARCHAR(255) NOT NULL PRIMARY KEY,
  -- Random 32 bytes, base64url: what a usernameless sign-in returns as userHandle (never the account's ID).
  user_handle VARCHAR(255) NOT NULL,
  CONSTRAINT bindery_passkey_users_user_handle_key UNIQUE (user_handle)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE bindery_passkeys (
  -- The credential ID, base64url (byte-exact: IDs differing only in case are distinct).
  id VARCHAR(768) NOT NULL PRIMARY KEY,
  user_id VARCHAR(255) NOT NULL,
  name LONGTEXT NOT NULL,
  public_key LONGBLOB NOT NULL,
  -- The authenticator's signature counter; a sign-in whose counter is not above it is refused (unless both are 0).
  counter BIGINT NOT NULL DEFAULT 0,
  -- A JSON array of transport names.
  transports JSON NOT NULL DEFAULT ('[]'),
  device_type VARCHAR(32) NOT NULL,
  backed_up BOOLEAN NOT NULL,
  created_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  last_used_at DATETIME(6) NULL,
  CONSTRAINT bindery_passkeys_user_id_fkey FOREIGN KEY (user_id) REFERENCES bindery_passkey_users (user_id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE INDEX bindery_passkeys_user_id_idx ON bindery_passkeys (user_id);
