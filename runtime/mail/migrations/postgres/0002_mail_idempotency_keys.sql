-- Idempotency keys of mail (docs/mail.md "Idempotency keys"): a mail sent
-- again with the key of one already sent is not sent again.
--
-- The outbox keeps the key with the message: one message per key.
ALTER TABLE mail_outbox ADD COLUMN idempotency_key text UNIQUE;

-- The sent-mail ledger of MAIL_DRIVER=smtp: the key of every keyed mail the
-- SMTP server accepted, checked before sending and written right after.
-- Rows older than 30 days are deleted by the mailer.
CREATE TABLE mail_sent (
  idempotency_key text PRIMARY KEY,
  message_id text NOT NULL,
  sent_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX mail_sent_sent_at_idx ON mail_sent (sent_at);
