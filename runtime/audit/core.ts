import type { DatabaseEngine } from '../db/engine.js';
import type { AuditSettings } from './settings.js';
import type { AnyKysely } from '../db/any-kysely.js';
import type { AuditWriter } from './writers/writer.js';

/** The audit log's database, its engine's writer strategy, and settings. (framework-internal: not exported by an entry). */
export interface AuditCore {
  /** Kysely over the app's pool: builds and compiles statements (and runs reads). */
  readonly db: AnyKysely;
  /** The app's database engine: audited writes run on its pool as prepared statements. */
  readonly engine: DatabaseEngine;
  /** How this engine writes and reads the log (writers/writer.ts). */
  readonly writer: AuditWriter;
  readonly settings: AuditSettings;
}
