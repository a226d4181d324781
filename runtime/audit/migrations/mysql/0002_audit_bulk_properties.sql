-- Details of a bulk entry, as audit_log.properties holds them for single-row
-- entries: a revert's bulk entry names what it reverted ({"reverted": {...}},
-- docs/audit.md "Revert"). Null for every other bulk write.
ALTER TABLE audit_bulk ADD COLUMN properties JSON NULL;
