/**
 * Factories (docs/database.md "Factories"): rows with valid values for tests
 * and seeds. `bindery generate` writes one plan per resource into
 * `generated/factories.ts` — which columns need a value, of what kind, under
 * which of the schema's constraints — and `createFactories(db, plans)` turns
 * the plans into `build` / `create` / `createMany` per resource.
 *
 * Values a plan derives, unless overridden: the first value of an enum (or of
 * an `in:` rule); `<column>-<n>` for text (an address for an `email` rule, a
 * URL for `url`, letters for `alpha`, cut to the maximum length, padded to the
 * minimum); `n` for numbers; `false`; the current time; `{}` for JSON; a
 * random UUID; `[]` for lists. `n` counts up per factory set, and unique
 * columns get a random part so that a second seed run does not collide. A
 * column referencing another resource gets a new row of that resource.
 * Nullable columns and columns with a default or identity are left to the
 * database.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { AnyKysely } from './any-kysely.js';
import { insertReturning } from './portable-writes.js';

/** What a factory fills in for one column. */
export interface FactoryFieldPlan {
  readonly kind: 'string' | 'integer' | 'number' | 'boolean' | 'timestamp' | 'duration' | 'json' | 'uuid' | 'file';
  readonly array?: boolean;
  /** Allowed values (an enum, or an `in:` rule of an input of the same name): the first is used. */
  readonly values?: readonly string[];
  /** Length bounds in characters (the column's `max`, `min:` / `max:` rules). */
  readonly minLength?: number;
  readonly maxLength?: number;
  /** A format required by a rule of an input of the same name. */
  readonly format?: 'email' | 'url' | 'alpha' | 'alpha_num';
  /** A prefix required by a `starts_with:` rule. */
  readonly prefix?: string;
  /** The column has a unique index: values get a random part. */
  readonly unique?: boolean;
  /** The column references another resource's column: a row of it is created. */
  readonly references?: { readonly resource: string; readonly column: string };
}

/** The plan of one resource's factory. */
export interface FactoryPlan {
  readonly table: string;
  /** The primary key column, by which a new row is read back on an engine without `RETURNING` (default `id`). */
  readonly key?: string;
  /** The columns a new row needs a value for (not nullable, no default, not an identity). */
  readonly fields: Readonly<Record<string, FactoryFieldPlan>>;
}

/** A resource's factory. `New` is the insert type (`NewNote`), `Row` the selected row (`Note`). */
export interface Factory<New, Row> {
  /** The values of a new row, overrides applied; nothing is written (referenced rows are not created: give them). */
  build(overrides?: Partial<New>): New;
  /**
   * Insert a new row (and a row of each referenced resource not given) and return it as selected.
   * @throws the database's error (a unique or foreign key violation, a CHECK constraint).
   */
  create(overrides?: Partial<New>): Promise<Row>;
  /** Insert `count` rows, one at a time, in order; `overrides` may depend on the index (0-based). */
  createMany(count: number, overrides?: Partial<New> | ((index: number) => Partial<New>)): Promise<Row[]>;
}

/**
 * The factories of `plans` writing through `db` (a Kysely instance or a
 * transaction): one {@link Factory} per resource name. The generated
 * `createFactories(db)` of `generated/factories.ts` calls this with the
 * app's plans and types.
 */
export function createFactories(
  db: AnyKysely,
  plans: Readonly<Record<string, FactoryPlan>>,
): Record<string, Factory<Record<string, unknown>, Record<string, unknown>>> {
  let counter = 0;
  const run = randomBytes(3).toString('hex');
  const factories: Record<string, Factory<Record<string, unknown>, Record<string, unknown>>> = {};
  const values = (plan: FactoryPlan, overrides: Record<string, unknown>, skipReferences: boolean): Record<string, unknown> => {
    const n = ++counter;
    const row: Record<string, unknown> = {};
    for (const [column, field] of Object.entries(plan.fields)) {
      if (column in overrides || (field.references && skipReferences)) continue;
      if (!field.references) row[column] = valueFor(column, field, n, run);
    }
    return { ...row, ...overrides };
  };
  for (const [name, plan] of Object.entries(plans)) {
    const factory: Factory<Record<string, unknown>, Record<string, unknown>> = {
      build: (overrides = {}) => values(plan, overrides, true),
      async create(overrides = {}) {
        const row = values(plan, overrides, false);
        for (const [column, field] of Object.entries(plan.fields)) {
          if (!field.references || column in overrides) continue;
          const target = factories[field.references.resource];
          if (!target)
            throw new Error(
              `factories.${name}: ${plan.table}.${column} references ${field.references.resource}, which has no factory; pass "${column}"`,
            );
          row[column] = (await target.create())[field.references.column];
        }
        return insertReturning(db, plan.table, row, plan.key === undefined ? {} : { key: plan.key });
      },
      async createMany(count, overrides = {}) {
        const rows: Record<string, unknown>[] = [];
        for (let i = 0; i < count; i++) rows.push(await factory.create(typeof overrides === 'function' ? overrides(i) : overrides));
        return rows;
      },
    };
    factories[name] = factory;
  }
  return factories;
}

function valueFor(column: string, field: FactoryFieldPlan, n: number, run: string): unknown {
  if (field.array) return [];
  switch (field.kind) {
    case 'string':
      return field.values?.[0] ?? text(column, field, n, run);
    case 'integer':
    case 'number':
      return field.unique ? n + parseInt(run, 16) * 1000 : n;
    case 'duration':
      return 1000 * n;
    case 'boolean':
      return false;
    case 'timestamp':
      return new Date();
    case 'json':
      return '{}';
    case 'uuid':
      return randomUUID();
    case 'file':
      // A reference to an empty text object that no disk holds: rows for tests, not files to serve.
      return JSON.stringify({
        disk: 'local',
        key: `factory/${run}/${n}`,
        name: `${column}-${n}.txt`,
        size: 0,
        type: 'text/plain',
        checksum: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      });
  }
}

function text(column: string, field: FactoryFieldPlan, n: number, run: string): string {
  const tag = field.unique ? `${n}-${run}` : String(n);
  const word = column.replace(/_/g, '-');
  let out: string;
  switch (field.format) {
    case 'email':
      out = `${word}${n}${field.unique ? `.${run}` : ''}@example.test`;
      break;
    case 'url':
      out = `https://example.test/${word}/${tag}`;
      break;
    case 'alpha':
      out = `${column.replace(/[^A-Za-z]/g, '')}${letters(n)}${field.unique ? letters(parseInt(run, 16)) : ''}`;
      break;
    case 'alpha_num':
      out = `${column.replace(/[^A-Za-z0-9]/g, '')}${n}${field.unique ? run : ''}`;
      break;
    default:
      out = `${field.prefix ?? ''}${word}-${tag}`;
  }
  const max = field.maxLength;
  // Too long: keep the end, where the number is — but an address or URL keeps its shape.
  if (max !== undefined && out.length > max)
    out = field.format === 'email' ? `${tag}@example.test`.slice(-max) : out.slice(out.length - max);
  if (field.minLength !== undefined && out.length < field.minLength) out = out.padEnd(field.minLength, 'x');
  return out;
}

/** `n` in the letters a–z (1 → `a`, 27 → `aa`). */
function letters(n: number): string {
  let out = '';
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) out = String.fromCharCode(97 + ((x - 1) % 26)) + out;
  return out;
}
