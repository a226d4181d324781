import type pg from 'pg';
import type { AuditSettings } from './settings.js';
import type { AnyKysely } from '../db/any-kysely.js';

/** The audit log's database and settings. (framework-internal: not exported by an entry). */
export interface AuditCore {
  /** Kysely over the app's pool: builds and compiles statements (and runs reads). */
  readonly db: AnyKysely;
  /** The app's pool: audited writes run on it as prepared statements. */
  readonly pool: pg.Pool;
  readonly settings: AuditSettings;
}
