/**
 * Where migrations live inside the output folder.
 */

/** File name of the snapshot inside the output folder. */
export const SNAPSHOT_FILE = 'schema.snapshot.json';
/** Folder of the migrations inside the output folder. */
export const MIGRATIONS_DIR = 'migrations';
