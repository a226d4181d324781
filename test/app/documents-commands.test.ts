/**
 * The documents app's commands through the real CLI (docs/spec.md 3 "prune
 * command", 6.1 rules 11–12; 9): `bindery prune
 * [--dry-run]`, `audit:prune`, `audit:anonymize user <id>`, exit codes 0/1/2.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import app from '../../app/main.js';
import { createTestApp, type TestApp } from '../../runtime/app/index.js';
import { runCli } from '../runtime/cli/run-cli.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { referenceAppEnv } from '../support/reference-app-env.js';
import { bearerFor } from './tokens-support.js';

const APP_MODULE = fileURLToPath(new URL('../../app/main.ts', import.meta.url));
const APP_KEY = `base64:${Buffer.alloc(32, 9).toString('base64')}`;

let database: TestDatabase;
let t: TestApp;
let cwd: string;

beforeAll(async () => {
  database = await createTestDatabase('doc_cli');
  // Boot once to apply the migrations (app and audit sets), then use the CLI.
  t = await createTestApp(app, { databaseUrl: database.url, env: referenceAppEnv });
  cwd = await mkdtemp(join(tmpdir(), 'bindery-doc-cli-'));
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
  if (cwd) await rm(cwd, { recursive: true, force: true });
});

/** `bindery <args> --app app/main.ts` in a folder without .env, against the test database. */
const bindery = (args: string[], env: Record<string, string> = {}) =>
  runCli([...args, '--app', APP_MODULE], {
    cwd,
    env: { DATABASE_URL: database.url, APP_KEY, LOG_LEVEL: 'silent', ...referenceAppEnv, ...env },
  });

async function post(path: string, user: number, body?: unknown) {
  const res = await fetch(`${t.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await bearerFor(t, user)}` },
    body: JSON.stringify(body ?? {}),
  });
  return res.json() as Promise<{ id: number }>;
}

/** `days` days before now, on the clock of this process (the commands compare with theirs). */
const daysAgo = (days: number): Date => new Date(Date.now() - days * 86_400_000);

describe('bindery prune [--dry-run]', () => {
  it('lists, then removes, documents soft-deleted more than 30 days ago: one bulk force_deleted entry per batch, by system via prune', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) ids.push((await post('/api/documents', 7, { slug: `old-${i}`, title: `Old ${i}` })).id);
    await t.db
      .updateTable('documents')
      .set({ deleted_at: daysAgo(31) })
      .where('id', 'in', ids.slice(0, 3))
      .execute();
    await t.db
      .updateTable('documents')
      .set({ deleted_at: daysAgo(5) })
      .where('id', '=', ids[3]!)
      .execute();

    const dry = await bindery(['prune', '--dry-run']);
    expect(dry.stderr).toBe('');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(
      new RegExp(
        `^documents: would delete 3 rows soft-deleted before \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z \\(keys ${ids.slice(0, 3).join(', ')}\\)\\n$`,
      ),
    );
    expect(await t.db.selectFrom('documents').select('id').where('id', 'in', ids).execute()).toHaveLength(4);

    const run = await bindery(['prune']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('documents: deleted 3 rows\n');
    expect(run.stdout).toContain('documents: deleted 3 rows in total, soft-deleted before ');
    expect((await t.db.selectFrom('documents').select('id').where('id', 'in', ids).execute()).map((r) => r.id)).toEqual([ids[3]]);
    const bulk = (await t.db
      .selectFrom('audit_bulk' as any)
      .selectAll()
      .where('action', '=', 'force_deleted')
      .execute()) as any[];
    expect(bulk).toHaveLength(1);
    expect(bulk[0]).toMatchObject({
      row_count: 3,
      actor_type: 'system',
      actor_id: null,
      via_kind: 'command',
      via_name: 'prune',
      subject_type: 'documents',
    });

    const again = await bindery(['prune']);
    expect(again.stdout).toMatch(/^documents: nothing soft-deleted before /);
  }, 90_000);
});

describe('bindery audit:prune', () => {
  it('keeps everything with AUDIT_RETENTION_DAYS=0', async () => {
    const r = await bindery(['audit:prune'], { AUDIT_RETENTION_DAYS: '0' });
    expect(r).toMatchObject({ code: 0, stdout: 'AUDIT_RETENTION_DAYS is 0: every audit entry is kept; nothing to prune.\n' });
  });

  it('deletes entries older than AUDIT_RETENTION_DAYS and records audit.pruned by system via audit:prune', async () => {
    const doc = await post('/api/documents', 8, { slug: 'aged', title: 'Aged' });
    await t.db
      .updateTable('audit_log')
      .set({ occurred_at: daysAgo(40) })
      .where('subject_id', '=', String(doc.id))
      .execute();
    const r = await bindery(['audit:prune'], { AUDIT_RETENTION_DAYS: '30' });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Pruned 1 audit entry and 0 bulk entries written before \S+ \(AUDIT_RETENTION_DAYS=30\)\.\n$/);
    const entries = (await t.db
      .selectFrom('audit_log' as any)
      .selectAll()
      .orderBy('id')
      .execute()) as any[];
    expect(entries.some((e) => e.subject_id === String(doc.id))).toBe(false);
    expect(entries.at(-1)).toMatchObject({
      action: 'audit.pruned',
      actor_type: 'system',
      via_name: 'audit:prune',
      properties: { entries: 1, bulk: 0, before: expect.any(String) },
    });
  });

  it('is a usage error (exit 2) with an extra argument', async () => {
    const r = await bindery(['audit:prune', 'extra']);
    expect(r.code).toBe(2);
  });

  it('stops on a bad audit setting (exit 1), naming it and the allowed values', async () => {
    const r = await bindery(['audit:prune'], { AUDIT_IP: 'partial' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('AUDIT_IP');
    expect(r.stderr).toContain('one of off, masked, full');
  });
});

describe('bindery audit:anonymize user <user_id>', () => {
  it('is a usage error (exit 2) without the ID', async () => {
    const r = await bindery(['audit:anonymize', 'user']);
    expect(r.code).toBe(2);
  });

  it('replaces the user with "erased" in every entry, keeps the values, records audit.anonymized', async () => {
    const doc = await post('/api/documents', 11, { slug: 'erase-me', title: 'Mine' });
    await post('/api/documents/archive', 11);
    await post('/api/documents', 12, { slug: 'keep-me', title: 'Theirs' });
    const r = await bindery(['audit:anonymize', 'user', '11']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Anonymized user 11: 1 audit entry and 0 bulk entries now read "erased".\n');
    const entries = (await t.db
      .selectFrom('audit_log' as any)
      .selectAll()
      .where('subject_id', '=', String(doc.id))
      .execute()) as any[];
    expect(entries.map((e) => [e.actor_type, e.actor_id, e.ip])).toEqual([['erased', null, null]]);
    expect(entries[0].changes.new).toMatchObject({ owner_id: 11, slug: 'erase-me' });
    expect(
      await t.db
        .selectFrom('audit_log' as any)
        .select('actor_id')
        .where('actor_id', '=', '12')
        .execute(),
    ).toHaveLength(1);
    const last = (await t.db
      .selectFrom('audit_log' as any)
      .selectAll()
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()) as any;
    expect(last).toMatchObject({
      action: 'audit.anonymized',
      actor_type: 'system',
      via_name: 'audit:anonymize',
      properties: { actor_type: 'user', entries: 1 },
    });
  });
});
