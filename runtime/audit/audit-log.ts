import type { DatabaseEngine } from '../db/engine.js';
import { parseDuration } from '../support/duration.js';
import { attribute } from './attribution.js';
import type { AuditCore } from './core.js';
import { jsonSafe } from './entries.js';
import { AuditKeyTooLongError, AuditModelError } from './errors.js';
import { historyPage, type HistoryOptions, type HistoryPage } from './history.js';
import { DEFAULT_AUDIT_SETTINGS, type AuditSettings } from './settings.js';
import { runStatement, type WriteTarget } from './sql-runner.js';
import { resolveModel, type TrackedResourceConfig } from './tracked-config.js';
import { TrackedModel } from './tracked-model.js';
import { writerFor } from './writers/for-engine.js';
import type { AnyKysely } from '../db/any-kysely.js';
import type { UntypedTables } from '../db/any-kysely.js';

/** An event the application records (docs/spec.md 6.1 "record by the application"). */
export interface AuditEvent {
  /** The application-chosen action, e.g. `documents.exported`. */
  readonly action: string;
  /** What the event is about: a table name (or any type) and a key of at most 255 bytes. */
  readonly subject?: { readonly type: string; readonly id: string | number } | null;
  /** JSON details, stored as the entry's `properties`. */
  readonly details?: Readonly<Record<string, unknown>> | null;
}

/** A soft-delete model whose deleted rows the prune removes after `periodMs`. */
export interface PrunableModel {
  readonly model: TrackedModel;
  readonly periodMs: number;
}

/** Options of {@link AuditLog}. */
export interface AuditLogOptions {
  /** The database: Kysely over the app's pool, and its engine (runtime/db `Database`). */
  readonly database: { readonly db: AnyKysely; readonly engine: DatabaseEngine };
  /** The audit settings (default: the defaults of `auditSettings`). */
  readonly settings?: Partial<AuditSettings>;
}

/** Tables tracked per database (its engine, one per pool): a model is tracked once per database (docs/spec.md 6.1 rule 9). */
const TRACKED = new WeakMap<DatabaseEngine, Set<string>>();

/** The typed models of a generated `trackedResources` object. */
export type ModelsOf<R extends Readonly<Record<string, TrackedResourceConfig>>> = { readonly [K in keyof R]: TrackedModel };

/**
 * The audit log of one database. The `audit()` setup step makes one and
 * hands it to handlers as `ctx.services.audit`, its models as
 * `ctx.services.models`.
 *
 * @example
 *   const log = new AuditLog({ database });            // database from connectDatabase()
 *   const { Document } = log.trackAll(trackedResources); // generated/audit.ts
 *   await Document.update(1, { title: 'New title' });
 *   await log.record({ action: 'documents.exported', subject: { type: 'users', id: 7 }, details: { documents: 3 } });
 *   const page = await log.history('documents', 1);
 *   log.close();
 */
export class AuditLog {
  /** The settings in use. */
  readonly settings: AuditSettings;
  readonly #core: AuditCore;
  readonly #models = new Map<string, TrackedModel>();
  readonly #prunable: PrunableModel[] = [];
  #closed = false;

  /**
   * @throws {AuditEngineError} `BINDERY_AUDIT_ENGINE_UNSUPPORTED`, naming the engine, when the audit log has no writer for the database's engine (docs/audit.md "Engines").
   */
  constructor(options: AuditLogOptions) {
    const { db, engine } = options.database;
    const writer = writerFor(engine);
    this.settings = Object.freeze({ ...DEFAULT_AUDIT_SETTINGS, ...options.settings });
    this.#core = { db, engine, writer, settings: this.settings };
  }

  /** The database the log writes to: Kysely, and its engine. */
  get database(): { readonly db: AnyKysely; readonly engine: DatabaseEngine } {
    return { db: this.#core.db, engine: this.#core.engine };
  }

  /**
   * Track a table: its writes then go through the returned model.
   * @throws {AuditModelError} without a primary key, for an unknown column, or when the table is already tracked for this database.
   */
  track<DB = UntypedTables, T extends keyof DB & string = UntypedTables, PK extends string = string>(
    config: TrackedResourceConfig,
  ): TrackedModel<DB, T, PK> {
    const resolved = resolveModel(config);
    let tables = TRACKED.get(this.#core.engine);
    if (!tables) TRACKED.set(this.#core.engine, (tables = new Set()));
    if (tables.has(config.table)) {
      throw new AuditModelError(
        `The table ${config.table} is already tracked for this database (model ${config.resource}); a model is tracked once per database (docs/spec.md 6.1 rule 9).`,
      );
    }
    tables.add(config.table);
    const model = new TrackedModel<DB, T, PK>(this.#core, resolved);
    this.#models.set(config.resource, model);
    return model;
  }

  /** Track every resource of a generated `trackedResources` object; returns the models by resource name. */
  trackAll<R extends Readonly<Record<string, TrackedResourceConfig>>>(resources: R): ModelsOf<R> {
    const models: Record<string, TrackedModel> = {};
    for (const [name, config] of Object.entries(resources)) models[name] = this.track(config);
    return models as ModelsOf<R>;
  }

  /**
   * The tracked model of a resource (or table) name.
   * @throws {AuditModelError} when nothing of that name is tracked.
   */
  model(name: string): TrackedModel {
    const found = this.#models.get(name) ?? [...this.#models.values()].find((m) => m.table === name);
    if (!found)
      throw new AuditModelError(`No tracked model is named "${name}"; tracked: ${[...this.#models.keys()].join(', ') || 'none'}.`);
    return found;
  }

  /** Every tracked model, by resource name. */
  get models(): ReadonlyMap<string, TrackedModel> {
    return this.#models;
  }

  /**
   * Register a soft-delete model for `pruneSoftDeleted` (`bindery prune`):
   * rows deleted more than `period` ago are removed.
   * @param period days (`30d`), a duration (`720h`, `P30D`) or milliseconds.
   * @throws {AuditModelError} for an unknown model, or one without soft delete.
   */
  registerPrunable(name: string, period: string | number): void {
    const model = this.model(name);
    if (model.config.softDelete === null) throw new AuditModelError(`${name} has no soft delete; only soft-deleted rows are pruned.`);
    const days = typeof period === 'string' ? /^\s*(\d+)\s*d\s*$/.exec(period) : null;
    const periodMs = typeof period === 'number' ? period : days ? Number(days[1]) * 86_400_000 : parseDuration(period);
    if (periodMs === undefined || !Number.isFinite(periodMs) || periodMs <= 0)
      throw new AuditModelError(`The prune period of ${name} is ${JSON.stringify(period)}; give a positive duration such as "30d".`);
    this.#prunable.push({ model, periodMs });
  }

  /** The models registered with {@link registerPrunable}. */
  get prunable(): readonly PrunableModel[] {
    return this.#prunable;
  }

  /**
   * Record an application event: an entry with an application-chosen
   * action, a subject and JSON details (docs/spec.md 6.1), attributed like writes.
   * @param options.db a Kysely transaction to record it in (default: its own).
   * @throws {AuditKeyTooLongError} for a subject ID over 255 bytes; {@link AuditActorTooLongError}.
   */
  async record(event: AuditEvent, options: { readonly db?: AnyKysely } = {}): Promise<void> {
    if (event.action.trim() === '') throw new RangeError('An audit event needs an action.');
    const subjectId = event.subject ? String(event.subject.id) : null;
    if (subjectId !== null && Buffer.byteLength(subjectId) > 255) throw new AuditKeyTooLongError(event.subject!.type, subjectId);
    const a = await attribute(this.settings.AUDIT_IP);
    const target: WriteTarget = options.db ? { kind: 'kysely', db: options.db } : { kind: 'pool', engine: this.#core.engine };
    const insert = this.#core.db.insertInto('audit_log').values({
      actor_type: a.actorType,
      actor_id: a.actorId,
      action: event.action,
      subject_type: event.subject?.type ?? null,
      subject_id: subjectId,
      properties: event.details === undefined || event.details === null ? null : this.#core.writer.documentText(jsonSafe(event.details)),
      via_kind: a.viaKind,
      via_name: a.viaName,
      request_id: a.requestId,
      ip: a.ip,
    });
    await runStatement(target, insert.compile());
  }

  /**
   * One page of a row's history (its entries and the bulk writes that
   * touched it), newest first; see `readHistory`.
   * @param subjectType the table name (or the type an application event used).
   * @throws {AuditCursorError} (400) for a bad cursor.
   */
  async history(subjectType: string, subjectId: string | number, options: HistoryOptions = {}): Promise<HistoryPage> {
    return historyPage(this.#core.writer, this.#core.db, subjectType, String(subjectId), options);
  }

  /** Forget the tracked tables (the database may be tracked again, e.g. by a new boot). Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    const tables = TRACKED.get(this.#core.engine);
    for (const model of this.#models.values()) tables?.delete(model.table);
  }
}
