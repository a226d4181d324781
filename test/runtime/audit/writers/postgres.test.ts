/**
 * PostgreSQL's audit writer (docs/audit.md "Engines", "Decisions" 1–2): a
 * single-row write and its entry are one `WITH` statement, sent on the pool
 * as a named prepared statement; a bulk write's chunk is one statement too,
 * inside BEGIN/COMMIT on a held connection, its keys locked first.
 */
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { postgresPoolOf } from '../../../../runtime/db/engines/postgres/index.js';
import { auditFixture, newDocument, type AuditFixture } from '../support.js';

interface Sent {
  readonly text: string;
  /** The prepared statement's name, when it was sent as one. */
  readonly name: string | undefined;
}

let f: AuditFixture;
let sent: Sent[] = [];
beforeAll(async () => {
  f = await auditFixture();
  // Every statement of every pooled client: pool.query and held connections alike.
  const wrapped = new WeakSet<pg.PoolClient>();
  postgresPoolOf(f.database).on('acquire', (client) => {
    if (wrapped.has(client)) return;
    wrapped.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      const first = args[0] as string | { text: string; name?: string };
      sent.push(typeof first === 'string' ? { text: first, name: undefined } : { text: first.text, name: first.name });
      return query(...args);
    }) as typeof client.query;
  });
});
afterAll(async () => {
  await f?.close();
});
beforeEach(async () => {
  await f.reset();
  sent = [];
});

/** What the write sent. */
async function statementsOf(write: () => Promise<unknown>): Promise<Sent[]> {
  sent = [];
  await write();
  return sent;
}

describe('postgresWriter | single-row writes', () => {
  it('an update is one named statement: the locked read, the update, the diff and the entry in one WITH', async () => {
    const doc = await f.Document.create(newDocument(1));
    const [update, ...more] = await statementsOf(() => f.Document.update(doc.id, { title: 'New' }));
    expect(more).toEqual([]);
    expect(update!.name).toMatch(/^bindery_[A-Za-z0-9_-]{27}$/);
    expect(update!.text).toMatch(
      /^with bindery_old as \(\(select .* from "documents" where "id" = \$1 and "deleted_at" is null for update\)\), /,
    );
    expect(update!.text).toContain(
      'bindery_new as (update "documents" set "title" = $2, "updated_at" = now() where "documents"."id" in (select "id" from bindery_old) returning ',
    );
    expect(update!.text).toContain('IS DISTINCT FROM bindery_new."title" THEN jsonb_build_object(\'title\', bindery_old."title")');
    expect(update!.text).toContain(
      "bindery_entry as (insert into audit_log (actor_type, actor_id, action, subject_type, subject_id, changes, properties, via_kind, via_name, request_id, ip) select cast($3 as text), cast($4 as text), 'updated', 'documents', cast(bindery_diff.\"id\" as text), jsonb_build_object('old', bindery_diff.old, 'new', bindery_diff.new), cast($5 as jsonb), cast($6 as text), cast($7 as text), cast($8 as text), cast($9 as inet) from bindery_diff where bindery_diff.new <> '{}'::jsonb)",
    );
    // The same write shape is the same prepared statement.
    const [again] = await statementsOf(() => f.Document.update(doc.id, { title: 'Newer' }));
    expect(again!.name).toBe(update!.name);
  });

  it('create, delete, restore and force delete are one named statement each, the entry inserted from the written rows', async () => {
    const writes: [string, () => Promise<unknown>][] = [
      ['with bindery_new as (insert into "documents"', () => f.Document.create(newDocument(1))],
      [
        'with bindery_new as (update "documents" set "deleted_at" = now() where "id" = $1 and "deleted_at" is null returning',
        () => f.Document.delete(1),
      ],
      [
        'with bindery_new as (update "documents" set "deleted_at" = $1 where "id" = $2 and "deleted_at" is not null returning',
        () => f.Document.restore(1),
      ],
      ['with bindery_old as (delete from "documents" where "id" = $1 returning', () => f.Document.forceDelete(1)],
    ];
    for (const [start, write] of writes) {
      const statements = await statementsOf(write);
      expect(statements).toHaveLength(1);
      expect(statements[0]!.name).toMatch(/^bindery_/);
      expect(statements[0]!.text.startsWith(start)).toBe(true);
      expect(statements[0]!.text).toMatch(/, bindery_entry as \(insert into audit_log .* from bindery_(new|old)\) select "id", /);
    }
  });

  it('an application event is one named insert', async () => {
    const statements = await statementsOf(() => f.log.record({ action: 'documents.exported', details: { n: 1 } }));
    expect(statements.map((s) => [s.text.slice(0, 24), s.name !== undefined])).toEqual([['insert into "audit_log" ', true]]);
  });
});

describe('postgresWriter | bulk writes', () => {
  it('locks the keys, takes the entry ID from its sequence, writes each chunk as one WITH statement, inserts the entry last', async () => {
    await f.Document.createMany([newDocument(1), newDocument(2)]);
    const statements = await statementsOf(() => f.Document.query().update({ status: 'archived' }));
    expect(statements.map((s) => [s.text.slice(0, 40), s.name !== undefined])).toEqual([
      ['BEGIN', false],
      ['select "id" from "documents" where "dele', false],
      ["select nextval(pg_get_serial_sequence('a", true],
      ['with bindery_old as (select "id", jsonb_', true],
      ['insert into "audit_bulk" ("id", "actor_t', true],
      ['COMMIT', false],
    ]);
    expect(statements[1]!.text).toBe('select "id" from "documents" where "deleted_at" is null order by "id" for update');
    expect(statements[3]!.text).toContain(
      'bindery_new as (update "documents" set "status" = $2, "updated_at" = now() where "id" = any($3) returning',
    );
    expect(statements[3]!.text).toContain(
      'bindery_items as (insert into audit_bulk_items (bulk_id, subject_type, subject_id) select cast($4 as bigint), \'documents\', cast(bindery_new."id" as text) from bindery_new)',
    );
  });

  it('an upsert reads the existing rows locked, then inserts ON CONFLICT … DO UPDATE with excluded values', async () => {
    await f.Gadget.create({ name: 'lamp', price: 1 });
    const statements = await statementsOf(() => f.Gadget.upsert([{ name: 'lamp', price: 2 }], { conflict: ['name'] }));
    const upsert = statements.find((s) => s.text.startsWith('with bindery_new as (insert into "gadgets"'));
    expect(upsert!.text).toContain('on conflict ("name") do update set "price" = "excluded"."price"');
    expect(statements.find((s) => s.text.includes('from "gadgets" where "name" in ($1) order by "id" for update'))).toBeDefined();
  });
});
