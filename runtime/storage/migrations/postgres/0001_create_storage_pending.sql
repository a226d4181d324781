-- Objects on a storage disk that no row holds yet (uploaded, not attached)
-- or any more (detached by a committed write, to be removed): what the
-- orphan sweep removes (docs/storage.md "Orphans").
CREATE TABLE storage_pending (
  disk text NOT NULL,
  key text NOT NULL,
  state text NOT NULL CHECK (state IN ('uploaded', 'detached')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (disk, key)
);
CREATE INDEX storage_pending_created_at_idx ON storage_pending (created_at);
