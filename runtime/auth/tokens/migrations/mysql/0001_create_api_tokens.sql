-- API tokens (SPEC.md 2.2, 5.5; docs/tokens.md), on MySQL and MariaDB. The
-- plain token "<id>|<secret>" is shown once; only the SHA-256 (hex) of the
-- secret is kept. A revoked token is deleted. user_id is the user's
-- authentication ID (text, so any user model fits); a token whose owner is gone is refused.
CREATE TABLE api_tokens (
  id BIGINT AUTO_INCREMENT PRIMARY KEY,
  user_id VARCHAR(255) NOT NULL,
  name VARCHAR(100) NOT NULL,
  token_hash CHAR(64) NOT NULL,
  abilities JSON NOT NULL DEFAULT ('[]'),
  last_used_at DATETIME(6) NULL,
  expires_at DATETIME(6) NULL,
  created_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  updated_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  CONSTRAINT api_tokens_token_hash_key UNIQUE (token_hash),
  CONSTRAINT api_tokens_abilities_is_array CHECK (JSON_TYPE(abilities) = 'ARRAY')
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE INDEX api_tokens_user_id_idx ON api_tokens (user_id);
