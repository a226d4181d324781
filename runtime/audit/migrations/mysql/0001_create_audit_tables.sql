-- The audit log on MySQL and MariaDB (SPEC.md 2.4, 2.5, 6.1 rule 14; docs/audit.md "Tables", "Engines").
-- Migration set "audit", added by the audit() setup step: the twin of postgres/0001_create_audit_tables.sql.
-- Keys and names are VARCHAR in utf8mb4_bin (byte-exact, as PostgreSQL compares); instants are
-- DATETIME(6) holding UTC (sessions run in UTC); JSON is JSON (on MariaDB a LONGTEXT checked by JSON_VALID).

-- One entry per change of one row, or per event the application records.
CREATE TABLE audit_log (
  id BIGINT AUTO_INCREMENT PRIMARY KEY,
  -- The time of the entry's insert (after the write, row lock held): entries of one row are in the
  -- order of their changes.
  occurred_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  actor_type VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
  actor_id VARCHAR(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
  action LONGTEXT NOT NULL,
  subject_type VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
  subject_id VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
  changes JSON NULL,
  properties JSON NULL,
  via_kind LONGTEXT NULL,
  via_name LONGTEXT NULL,
  request_id LONGTEXT NULL,
  ip VARCHAR(45) CHARACTER SET ascii COLLATE ascii_bin NULL,
  CONSTRAINT audit_log_actor_id_length CHECK (OCTET_LENGTH(actor_id) <= 100),
  CONSTRAINT audit_log_subject_id_length CHECK (OCTET_LENGTH(subject_id) <= 255),
  -- History of a row, newest first.
  INDEX audit_log_subject_idx (subject_type, subject_id, occurred_at DESC, id DESC),
  -- Erasure (audit:anonymize) finds an actor's entries.
  INDEX audit_log_actor_idx (actor_type, actor_id),
  -- Retention (audit:prune) finds old entries.
  INDEX audit_log_occurred_at_idx (occurred_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- One entry per query-level write (Update, Delete, ForceDelete, Restore, CreateMany, Upsert).
CREATE TABLE audit_bulk (
  -- There are no sequences: a bulk write inserts its entry first (its ID is what the items name) and
  -- fills it in last, in the same transaction.
  id BIGINT AUTO_INCREMENT PRIMARY KEY,
  occurred_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  actor_type VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
  actor_id VARCHAR(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
  action LONGTEXT NOT NULL,
  subject_type VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
  row_count INT NOT NULL,
  -- {"sql": "...", "args": [...]}: the condition that selected the rows.
  where_clause JSON NULL,
  -- column → value written (or {"sql", "args"} for an expression).
  assignments JSON NULL,
  -- key → {column: value} for up to AUDIT_BULK_MAX_VALUES rows.
  values_before JSON NULL,
  values_after JSON NULL,
  -- Every touched row's values are in values_before / values_after.
  values_complete BOOLEAN NOT NULL,
  via_kind LONGTEXT NULL,
  via_name LONGTEXT NULL,
  request_id LONGTEXT NULL,
  ip VARCHAR(45) CHARACTER SET ascii COLLATE ascii_bin NULL,
  CONSTRAINT audit_bulk_actor_id_length CHECK (OCTET_LENGTH(actor_id) <= 100),
  INDEX audit_bulk_actor_idx (actor_type, actor_id),
  INDEX audit_bulk_occurred_at_idx (occurred_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Every row a bulk write touched. No foreign key to audit_bulk: the runtime deletes items with their
-- entry (prune), as on PostgreSQL.
CREATE TABLE audit_bulk_items (
  bulk_id BIGINT NOT NULL,
  subject_type VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
  subject_id VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
  PRIMARY KEY (bulk_id, subject_id),
  CONSTRAINT audit_bulk_items_subject_id_length CHECK (OCTET_LENGTH(subject_id) <= 255),
  -- History of a row: the bulk writes that touched it.
  INDEX audit_bulk_items_subject_idx (subject_type, subject_id, bulk_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
