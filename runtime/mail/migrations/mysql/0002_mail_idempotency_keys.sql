-- Idempotency keys of mail (docs/mail.md "Idempotency keys"), on MySQL and
-- MariaDB: a mail sent again with the key of one already sent is not sent again.
-- Keys are at most 200 characters (longer ones are hashed), compared byte for byte.
--
-- The outbox keeps the key with the message: one message per key.
ALTER TABLE mail_outbox ADD COLUMN idempotency_key VARCHAR(255) NULL,
  ADD CONSTRAINT mail_outbox_idempotency_key_key UNIQUE (idempotency_key);

-- The sent-mail ledger of MAIL_DRIVER=smtp: the key of every keyed mail the
-- SMTP server accepted, checked before sending and written right after.
-- Rows older than 30 days are deleted by the mailer.
CREATE TABLE mail_sent (
  idempotency_key VARCHAR(255) NOT NULL PRIMARY KEY,
  message_id LONGTEXT NOT NULL,
  sent_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE INDEX mail_sent_sent_at_idx ON mail_sent (sent_at);
