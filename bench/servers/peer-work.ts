/**
 * The work of the hand-written peers of the HTTP benchmark (Fastify + ajv +
 * pg, raw `node:http` + pg), written once so both do exactly what the
 * reference app does for the measured routes: the same SQL, the same rows,
 * the same JSON and problem details, the same response headers.
 *
 * - `POST /notes`: insert the note (`RETURNING *`), 201 with `Location`;
 *   an "untitled" title or failed field rules are 422 problem details.
 * - `GET /notes?limit=&cursor=`: one page of the newest notes, as the list
 *   route answers it (keyset query, `{ data, next }`, a sealed cursor).
 * - `GET /api/documents/{id}` with `Authorization: Bearer <id>|<secret>`:
 *   the token row by ID, its SHA-256 hash compared in constant time, its
 *   expiry, its owner loaded, its last use written at most once a minute,
 *   then the owner's document (401 / 404 problem details otherwise).
 */
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import pg from 'pg';

// bigint columns as numbers, as bindery reads them.
pg.types.setTypeParser(20, (v: string) => Number(v));

/** The pool: bindery's default size (10). */
export const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
pool.on('error', () => {});

/**
 * Headers bindery sends on every response in production; its default
 * Content-Security-Policy comes from the runner (BENCH_CONTENT_SECURITY_POLICY),
 * which checks that every server answers with the same ones.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cross-origin-opener-policy': 'same-origin',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  ...(process.env.BENCH_CONTENT_SECURITY_POLICY ? { 'content-security-policy': process.env.BENCH_CONTENT_SECURITY_POLICY } : {}),
};

const VALID_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** The request ID: the incoming `X-Request-ID` when valid, else a fresh UUID. */
export function requestId(incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && VALID_ID.test(incoming) ? incoming : randomUUID();
}

/** A problem details body (RFC 9457) as bindery writes it. */
export function problem(status: number, title: string, detail: string, id: string, errors?: Record<string, string>): string {
  return JSON.stringify(
    errors === undefined
      ? { type: 'about:blank', title, status, detail, request_id: id }
      : { type: 'about:blank', title, status, detail, errors, request_id: id },
  );
}

/** The 422 body of failed field rules. */
export const invalid = (errors: Record<string, string>, id: string) =>
  problem(422, 'Unprocessable Content', 'The given data was invalid.', id, errors);

export interface NoteInput {
  title: string;
  body?: string;
  tags?: string[];
}

/** The handler's own check after the field rules: `null` when the note may be made. */
export function untitled(input: NoteInput): Record<string, string> | null {
  return input.title.replace(/\s+/g, '').toLowerCase() === 'untitled'
    ? { title: 'The title field must not be "untitled"; give the note a real title.' }
    : null;
}

interface NoteRow {
  id: number;
  title: string;
  body: string;
  tags: string[];
  created_at: Date;
}

function noteJson(row: NoteRow): Record<string, unknown> {
  const note: Record<string, unknown> = { id: row.id, title: row.title, body: row.body };
  if (row.tags.length > 0) note.tags = row.tags;
  note.created_at = row.created_at.toISOString();
  return note;
}

/** Insert the note; its JSON and `Location`. */
export async function createNote(input: NoteInput): Promise<{ json: string; location: string }> {
  const { rows } = await pool.query<NoteRow>('insert into "notes" ("title", "body", "tags") values ($1, $2, $3) returning *', [
    input.title,
    input.body ?? '',
    input.tags ?? [],
  ]);
  const row = rows[0]!;
  return { json: JSON.stringify(noteJson(row)), location: `/notes/${row.id}` };
}

// The list's cursor key, derived from APP_KEY as bindery derives it (HMAC-SHA256(key, "bindery cursor")).
const CURSOR_KEY = createHmac('sha256', Buffer.from((process.env.APP_KEY ?? '').replace(/^base64:/, ''), 'base64'))
  .update('bindery cursor')
  .digest();
const ROUTE = 'notes.list';
const SORT = '-created_at';
const cursorTag = (body: string) => createHmac('sha256', CURSOR_KEY).update(body).digest().subarray(0, 16).toString('base64url');

/** A sealed cursor's `[created_at text, id text]`, or undefined when it was not made here for this list, order and (no) filters. */
function openCursor(text: string, fingerprint: string): [string, string] | undefined {
  const dot = text.indexOf('.');
  if (dot <= 0 || text.length > 4096) return undefined;
  const body = text.slice(0, dot);
  const tag = Buffer.from(text.slice(dot + 1), 'base64url');
  if (tag.length !== 16 || !timingSafeEqual(tag, Buffer.from(cursorTag(body), 'base64url'))) return undefined;
  const values = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown[];
  if (values[0] !== ROUTE || values[1] !== SORT || values[2] !== fingerprint) return undefined;
  return [String(values[3]), String(values[4])];
}

/**
 * One page of notes as the reference app's list route answers it with no
 * sort or filter given: keyset on (created_at, id) descending, `limit + 1`
 * rows to know whether a next page exists, `{ data, next }` with `next` a
 * cursor sealed with HMAC-SHA256 over base64url JSON of the route, the
 * order, the filters' fingerprint and the last row's keys.
 *
 * @returns the JSON body, or undefined for a cursor that does not open (a 400).
 */
export async function listNotes(limit: number, cursor?: string): Promise<string | undefined> {
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([ROUTE, []]))
    .digest('base64url')
    .slice(0, 16);
  const after = cursor === undefined || cursor === '' ? undefined : openCursor(cursor, fingerprint);
  if (cursor !== undefined && cursor !== '' && after === undefined) return undefined;
  const keys = `to_char("created_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "sort_text", cast("id" as text) as "key_text"`;
  const { rows } =
    after === undefined
      ? await pool.query<NoteRow & { sort_text: string; key_text: string }>(
          `select *, ${keys} from "notes" order by "created_at" desc, "id" desc limit $1`,
          [limit + 1],
        )
      : await pool.query<NoteRow & { sort_text: string; key_text: string }>(
          `select *, ${keys} from "notes" where ("created_at", "id") < (cast($2 as timestamptz), cast($3 as bigint)) order by "created_at" desc, "id" desc limit $1`,
          [limit + 1, after[0], after[1]],
        );
  const page = rows.length > limit ? rows.slice(0, limit) : rows;
  const last = page.at(-1);
  let next: string | null = null;
  if (rows.length > limit && last !== undefined) {
    const body = Buffer.from(JSON.stringify([ROUTE, SORT, fingerprint, last.sort_text, last.key_text])).toString('base64url');
    next = `${body}.${cursorTag(body)}`;
  }
  return JSON.stringify({ data: page.map(noteJson), next });
}

/** The 400 body of a cursor that does not open. */
export const badCursor = (id: string) =>
  problem(400, 'Bad Request', 'The given data was invalid.', id, {
    cursor: 'The cursor is not valid; start again without it and follow the "next" values of the pages.',
  });

const BEARER = /^bearer(?:[ \t]+(.*))?$/i;
const PLAIN = /^([1-9][0-9]{0,14})\|([A-Za-z0-9_-]{40})$/;
const MINUTE = 60_000;

/** The outcome of the documents route: status and body. */
export interface Answer {
  readonly status: number;
  readonly body: string;
  readonly problem: boolean;
  readonly challenge?: string;
}

/** `GET /api/documents/{id}` with its bearer check (see the module doc). */
export async function showDocument(authorization: string | undefined, id: number, rid: string): Promise<Answer> {
  const m = authorization === undefined ? null : BEARER.exec(authorization.trim());
  if (m === null)
    return {
      status: 401,
      problem: true,
      challenge: 'Bearer',
      body: problem(401, 'Unauthorized', 'This route needs an API token: send Authorization: Bearer <token>.', rid),
    };
  const parsed = PLAIN.exec((m[1] ?? '').trim());
  const bad: Answer = {
    status: 401,
    problem: true,
    challenge: 'Bearer error="invalid_token"',
    body: problem(401, 'Unauthorized', 'The bearer token is invalid, expired or revoked; create a new one.', rid),
  };
  if (parsed === null) return bad;
  const token = (
    await pool.query<{ id: number; user_id: string; token_hash: string; expires_at: Date | null; last_used_at: Date | null }>(
      'select * from "api_tokens" where "id" = $1',
      [Number(parsed[1])],
    )
  ).rows[0];
  if (token === undefined) return bad;
  const given = createHash('sha256').update(parsed[2]!, 'utf8').digest();
  const stored = Buffer.from(token.token_hash, 'hex');
  if (stored.length !== given.length || !timingSafeEqual(given, stored)) return bad;
  const now = Date.now();
  if (token.expires_at !== null && token.expires_at.getTime() <= now) return bad;
  const user = (await pool.query('select * from "users" where "id" = $1', [Number(token.user_id)])).rows[0];
  if (user === undefined) return bad;
  if (token.last_used_at === null || now - token.last_used_at.getTime() >= MINUTE) {
    await pool.query('update "api_tokens" set "last_used_at" = $1 where "id" = $2 and ("last_used_at" is null or "last_used_at" <= $3)', [
      new Date(now),
      token.id,
      new Date(now - MINUTE),
    ]);
  }
  const doc = (
    await pool.query<{
      id: number;
      owner_id: number;
      slug: string;
      title: string;
      body: string;
      status: string;
      view_count: number;
      created_at: Date;
      updated_at: Date;
    }>('select * from "documents" where "id" = $1 and "owner_id" = $2 and "deleted_at" is null', [id, Number(token.user_id)])
  ).rows[0];
  if (doc === undefined) return { status: 404, problem: true, body: problem(404, 'Not Found', `Document ${id} does not exist.`, rid) };
  const json = {
    id: doc.id,
    owner_id: doc.owner_id,
    slug: doc.slug,
    title: doc.title,
    body: doc.body,
    status: doc.status,
    views: doc.view_count,
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
  };
  return { status: 200, problem: false, body: JSON.stringify(json) };
}
