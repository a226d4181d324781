-- Objects on a storage disk that no row holds yet (uploaded, not attached)
-- or any more (detached by a committed write, to be removed): what the
-- orphan sweep removes (docs/storage.md "Orphans"), on MySQL and MariaDB.
-- The key (a reserved word: quoted) is byte-exact; disk and key together stay within the index's 3072 bytes.
CREATE TABLE storage_pending (
  disk VARCHAR(64) NOT NULL,
  `key` VARCHAR(700) NOT NULL,
  state VARCHAR(16) NOT NULL,
  created_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  PRIMARY KEY (disk, `key`),
  CONSTRAINT storage_pending_state_check CHECK (state IN ('uploaded', 'detached'))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE INDEX storage_pending_created_at_idx ON storage_pending (created_at);
