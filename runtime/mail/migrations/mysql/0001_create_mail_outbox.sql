-- The outbox of MAIL_DRIVER=outbox (docs/mail.md "The outbox"), on MySQL and
-- MariaDB: every mail the app would have sent, as nodemailer built it. Shown
-- newest first by "bindery mail:outbox". recipients is a JSON array of addresses.
CREATE TABLE mail_outbox (
  id BIGINT AUTO_INCREMENT PRIMARY KEY,
  message_id LONGTEXT NOT NULL,
  sender LONGTEXT NOT NULL,
  recipients JSON NOT NULL,
  subject LONGTEXT NOT NULL,
  text_body LONGTEXT NOT NULL,
  html_body LONGTEXT NULL,
  raw LONGTEXT NOT NULL,
  created_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE INDEX mail_outbox_created_at_idx ON mail_outbox (created_at, id);
