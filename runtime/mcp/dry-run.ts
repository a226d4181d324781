/**
 * Dry runs of MCP tool calls (docs/mcp.md "Dry run"): the call's request
 * runs with services bound to one transaction, which is rolled back once
 * the request is answered — its rows, its audit entries and the jobs it
 * queued (graphile-worker's and the SQL queue's rows are in the same
 * database) go with it. What the audit log would have kept is read inside
 * the transaction first.
 */
import type { Kysely } from 'kysely';
import type { AnyKysely } from '../db/any-kysely.js';
import type { Services } from '../http/context.js';

/** An audit entry the call would have written (`audit_log`, or a bulk write's `audit_bulk`). */
export interface DryRunEntry {
  readonly action: string;
  readonly subject: { readonly type: string | null; readonly id: string | null };
  readonly actor: string;
  readonly via: { readonly kind: string | null; readonly name: string | null };
  readonly changes?: unknown;
  readonly details?: unknown;
  /** Bulk writes: how many rows the write touched. */
  readonly rows?: number;
}

interface Bindable {
  using?(db: AnyKysely): unknown;
}

/**
 * The services a dry run's request sees: `db` is the transaction; each
 * tracked model (`models`) writes through it (`using`); `audit.record` and
 * `queue.add` default to it; `mailer.send` sends nothing (it resolves with
 * no recipient delivered). Every other service is the app's own — another
 * side effect outside the database (a stored file, an HTTP call) is the
 * handler's to skip (`ctx.dryRun`).
 */
export function dryRunServices(services: Services, trx: AnyKysely): Services {
  const s = services as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = Object.create(services) as Record<string, unknown>;
  out['db'] = trx;
  const models = s['models'] as Record<string, Bindable> | undefined;
  if (models !== undefined)
    out['models'] = Object.fromEntries(Object.entries(models).map(([name, m]) => [name, typeof m.using === 'function' ? m.using(trx) : m]));
  if (s['audit'] !== undefined) out['audit'] = withDefaultOption(s['audit'], 'record', 1, { db: trx });
  if (s['queue'] !== undefined) out['queue'] = withDefaultOption(s['queue'], 'add', 2, { tx: trx });
  if (s['mailer'] !== undefined) out['mailer'] = replacing(s['mailer'], 'send', () => Promise.resolve({ delivered: [], skipped: [] }));
  return out as unknown as Services;
}

/** `target` with its method `name` replaced by `fn`; other members as they are. */
function replacing(target: unknown, name: string, fn: (...args: unknown[]) => unknown): unknown {
  return new Proxy(target as object, {
    get(t, prop) {
      if (prop === name) return fn;
      const value = Reflect.get(t, prop, t) as unknown;
      return typeof value === 'function' ? value.bind(t) : value;
    },
  });
}

/** `target` with its method `name` given `defaults` in its options argument (at `index`); other members as they are. */
function withDefaultOption(target: unknown, name: string, index: number, defaults: Record<string, unknown>): unknown {
  return new Proxy(target as object, {
    get(t, prop) {
      const value = Reflect.get(t, prop, t) as unknown;
      if (typeof value !== 'function') return value;
      if (prop !== name) return value.bind(t);
      return (...args: unknown[]) => {
        const given = (args[index] as Record<string, unknown> | undefined) ?? {};
        const next = [...args];
        while (next.length < index) next.push(undefined);
        next[index] = { ...defaults, ...given };
        return (value as (...a: unknown[]) => unknown).apply(t, next);
      };
    },
  });
}

/**
 * Run `fn` with a transaction of `db` that is always rolled back.
 * @returns what `fn` returns.
 */
export async function inRolledBackTransaction<T>(db: AnyKysely, fn: (trx: AnyKysely) => Promise<T>): Promise<T> {
  const trx = await (db as Kysely<unknown>).startTransaction().execute();
  try {
    return await fn(trx as unknown as AnyKysely);
  } finally {
    await trx.rollback().execute();
  }
}

/** The audit entries written in `trx` for the request `requestId`, oldest first; none when the app has no audit log. */
export async function entriesOf(trx: AnyKysely, requestId: string, audited: boolean): Promise<DryRunEntry[]> {
  if (!audited) return [];
  const db = trx as unknown as Kysely<Record<string, Record<string, unknown>>>;
  const rows = await db
    .selectFrom('audit_log')
    .select(['actor_type', 'actor_id', 'action', 'subject_type', 'subject_id', 'changes', 'properties', 'via_kind', 'via_name'])
    .where('request_id', '=', requestId)
    .orderBy('id')
    .execute();
  const bulk = await db
    .selectFrom('audit_bulk')
    .select(['actor_type', 'actor_id', 'action', 'subject_type', 'row_count', 'via_kind', 'via_name'])
    .where('request_id', '=', requestId)
    .orderBy('id')
    .execute();
  const json = (v: unknown): unknown => (typeof v === 'string' ? JSON.parse(v) : v);
  const actor = (r: Record<string, unknown>) => (r['actor_id'] === null ? String(r['actor_type']) : `${r['actor_type']}:${r['actor_id']}`);
  return [
    ...rows.map((r) => ({
      action: String(r['action']),
      subject: { type: (r['subject_type'] as string | null) ?? null, id: (r['subject_id'] as string | null) ?? null },
      actor: actor(r),
      via: { kind: (r['via_kind'] as string | null) ?? null, name: (r['via_name'] as string | null) ?? null },
      ...(r['changes'] !== null ? { changes: json(r['changes']) } : {}),
      ...(r['properties'] !== null ? { details: json(r['properties']) } : {}),
    })),
    ...bulk.map((r) => ({
      action: String(r['action']),
      subject: { type: (r['subject_type'] as string | null) ?? null, id: null },
      actor: actor(r),
      via: { kind: (r['via_kind'] as string | null) ?? null, name: (r['via_name'] as string | null) ?? null },
      rows: Number(r['row_count']),
    })),
  ];
}
