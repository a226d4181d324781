/**
 * The generated client (generated/client.ts; docs/client.md) against the
 * reference app over real HTTP: a program written against it type-checks
 * (and one with a wrong input type does not), then runs; and the client's
 * placement of path, query and body fields, its typed errors, bearer
 * tokens, no-content and redirect answers, checked one by one.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createClient } from '../../generated/client.js';
import { REPO } from '../generator/support.js';
import { strictTsconfig } from '../support/strict-tsconfig.js';
import { bearerFor, bootReferenceApp, clearCounters, type ReferenceApp } from './tokens-support.js';

const run = promisify(execFile);

let a: ReferenceApp;
let dir: string;

beforeAll(async () => {
  a = await bootReferenceApp('client_app');
  dir = await mkdtemp(join(tmpdir(), 'bindery-client-'));
  await copyFile(join(REPO, 'generated/client.ts'), join(dir, 'client.ts'));
  await writeFile(join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  await writeFile(
    join(dir, 'tsconfig.json'),
    strictTsconfig({ include: ['*.ts'], compilerOptions: { typeRoots: [join(REPO, 'node_modules/@types')] } }),
  );
});
afterAll(async () => {
  await a?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A program an API user would write: notes without a session, a 422 read as a typed error, the token-protected documents API. */
const PROGRAM = `import { ApiError, createClient, type NoteJson } from './client.js';

const baseUrl = process.env['BASE_URL']!;
const api = createClient({ baseUrl });
const created: NoteJson = await api.notes.create({ title: 'From the client', tags: ['a', 'b'] });
const listed = await api.notes.list({ limit: 50 });
let titleError = '';
let status = 0;
try {
  await api.notes.create({ title: '' });
} catch (error) {
  if (!(error instanceof ApiError)) throw error;
  status = error.status;
  titleError = error.errors['title'] ?? '';
}
const deleted: void = await api.notes.delete({ id: created.id });
const documents = createClient({ baseUrl, token: process.env['TOKEN'] });
const doc = await documents.documents.create({ slug: 'from-client', title: 'A document' });
const history = await documents.documents.history({ id: doc.id, cursor: undefined });
let unauthorized = 0;
try {
  await api.documents.show({ id: doc.id });
} catch (error) {
  if (error instanceof ApiError) unauthorized = error.status;
}
console.log(JSON.stringify({ created, listed: listed.data.map((n) => n.id), status, titleError, deleted: deleted === undefined, doc, history, unauthorized }));
`;

describe('generated client | a program written against it', () => {
  it('type-checks, and a wrong input type does not', async () => {
    await writeFile(join(dir, 'program.ts'), PROGRAM);
    await writeFile(
      join(dir, 'wrong.ts'),
      `import { createClient } from './client.js';
const api = createClient({ baseUrl: 'http://localhost' });
await api.notes.create({ title: 42 });
await api.notes.show({ id: '7' });
await api.documents.history({ cursor: 'x' });
`,
    );
    const tsc = join(REPO, 'node_modules/.bin/tsc');
    const good = await run(tsc, ['--noEmit', '-p', dir]).then(
      () => '',
      (e: { stdout: string }) => e.stdout,
    );
    expect(good).toContain('wrong.ts');
    expect(good).not.toContain('program.ts');
    expect(good).toMatch(/wrong\.ts\(3,26\): error TS2322: Type 'number' is not assignable to type 'string'/);
    expect(good).toMatch(/wrong\.ts\(4,24\): error TS2322: Type 'string' is not assignable to type 'number'/);
    expect(good).toMatch(/wrong\.ts\(5,\d+\): error TS2741: Property 'id' is missing/);
  });

  it('runs against the app: create, list, a 422 as ApiError with errors.title, delete, the documents API with a bearer token', async () => {
    await writeFile(join(dir, 'program.ts'), PROGRAM);
    const token = await bearerFor(a.t, 4242);
    const { stdout } = await run(process.execPath, ['--import', 'tsx', join(dir, 'program.ts')], {
      cwd: REPO,
      env: { ...process.env, BASE_URL: a.url, TOKEN: token },
    });
    const out = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(out.created).toMatchObject({ title: 'From the client', body: '', tags: ['a', 'b'] });
    expect(out.listed).toContain(out.created.id);
    expect(out.status).toBe(422);
    expect(out.titleError).toMatch(/required/i);
    expect(out.deleted).toBe(true);
    expect(await a.db.selectFrom('notes').select('id').where('id', '=', out.created.id).executeTakeFirst()).toBeUndefined();
    expect(out.doc).toMatchObject({ slug: 'from-client', title: 'A document', owner_id: 4242, status: 'draft' });
    expect(Array.isArray(out.history.events ?? out.history)).toBe(true);
    expect(out.unauthorized).toBe(401);
  });
});

describe('generated client | one call at a time', () => {
  it('puts query fields in the query string and path fields in the path', async () => {
    const seen: string[] = [];
    const api = createClient({
      baseUrl: `${a.url}/`,
      fetch: (url, init) => {
        seen.push(`${init.method} ${url}`);
        return fetch(url, init);
      },
    });
    const one = await api.notes.create({ title: 'one' });
    await api.notes.create({ title: 'two' });
    expect((await api.notes.list({ limit: 1 })).data).toHaveLength(1);
    expect((await api.notes.show({ id: one.id })).title).toBe('one');
    expect(seen).toEqual([`POST ${a.url}/notes`, `POST ${a.url}/notes`, `GET ${a.url}/notes?limit=1`, `GET ${a.url}/notes/${one.id}`]);
  });

  it('a 404 and a 400 are ApiErrors with status and problem details', async () => {
    const api = createClient({ baseUrl: a.url });
    const missing = await api.notes.show({ id: 999_999 }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ApiError);
    expect(missing).toMatchObject({ status: 404, route: 'notes.show', problem: { status: 404, title: 'Not Found' } });
    const wrongType = await api.notes.show({ id: 'x' as unknown as number }).catch((e: unknown) => e);
    expect(wrongType).toMatchObject({ status: 400, problem: { errors: { id: expect.any(String) } } });
  });

  it("bearer tokens: the documents API answers with the caller's documents; a bad token is a 401 ApiError", async () => {
    const token = await bearerFor(a.t, 4343);
    const api = createClient({ baseUrl: a.url, token: async () => token });
    const doc = await api.documents.create({ slug: 'mine', title: 'Mine' });
    expect(await api.documents.show({ id: doc.id })).toMatchObject({ id: doc.id, owner_id: 4343 });
    expect((await api.documents.export()).map((d) => d.id)).toEqual([doc.id]);
    const bad = await createClient({ baseUrl: a.url, token: '1|nope' })
      .documents.export()
      .catch((e: unknown) => e);
    expect(bad).toMatchObject({ status: 401 });
  });

  it('a redirect route resolves to its location; a network failure is an ApiError with status 0', async () => {
    await clearCounters(a);
    const api = createClient({ baseUrl: a.url });
    const r = await api.accounts.register({
      name: 'Client',
      email: 'client-user@example.test',
      password: 'analytical engine',
      password_confirmation: 'analytical engine',
    });
    expect(r).toEqual({ location: '/dashboard' });
    const down = await createClient({ baseUrl: 'http://127.0.0.1:9' })
      .notes.list()
      .catch((e: unknown) => e);
    expect(down).toMatchObject({ status: 0, problem: { title: 'Network Error' } });
  });
});
