/**
 * What every tracked model and bulk query of one audit log shares.
 */
import type { Kysely } from 'kysely';
import type pg from 'pg';
import type { AuditSettings } from './settings.js';

/** The audit log's database and settings. @internal */
export interface AuditCore {
  /** Kysely over the app's pool: builds and compiles statements (and runs reads). */
  readonly db: Kysely<any>;
  /** The app's pool: audited writes run on it as prepared statements. */
  readonly pool: pg.Pool;
  readonly settings: AuditSettings;
}
