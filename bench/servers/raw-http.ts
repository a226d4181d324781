/**
 * Bench server: a raw `node:http` server that parses and checks the
 * `POST /notes` body by hand — no framework, no schema compiler. The
 * practical limit of what Node can do for this request.
 */
import { createServer } from 'node:http';
import { listenForBench } from './listen.js';

const ALPHA_DASH = /^[\p{L}\p{M}\p{N}_-]+$/u;
let nextId = 1;

function check(input: unknown): Record<string, string> | null {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { _: 'The body must be a JSON object.' };
  const o = input as Record<string, unknown>;
  const errors: Record<string, string> = {};
  if (typeof o.title !== 'string' || !/\S/.test(o.title)) errors.title = 'The title field is required.';
  else if ([...o.title].length > 200) errors.title = 'The title field must not be greater than 200 characters.';
  if (o.body !== undefined && (typeof o.body !== 'string' || [...o.body].length > 10000)) errors.body = 'The body field must not be greater than 10000 characters.';
  if (o.tags !== undefined) {
    const tags = o.tags;
    if (!Array.isArray(tags) || tags.some((t) => typeof t !== 'string')) errors.tags = 'The tags field must be an array of strings.';
    else if (tags.length > 5) errors.tags = 'The tags field must not have more than 5 items.';
    else if (new Set(tags).size !== tags.length) errors.tags = 'The tags field has a duplicate value.';
    else if (tags.some((t) => !ALPHA_DASH.test(t as string))) errors.tags = 'The tags field must only contain letters, numbers, dashes, and underscores.';
  }
  return Object.keys(errors).length > 0 ? errors : null;
}

const server = createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/notes') { res.writeHead(404).end(); return; }
  if (!(req.headers['content-type'] ?? '').startsWith('application/json')) { res.writeHead(415).end(); return; }
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    let input: unknown;
    try { input = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch { res.writeHead(400).end(); return; }
    const errors = check(input);
    if (errors) {
      res.writeHead(422, { 'content-type': 'application/problem+json' });
      res.end(JSON.stringify({ type: 'about:blank', title: 'Unprocessable Content', status: 422, detail: 'The given data was invalid.', errors }));
      return;
    }
    const o = input as { title: string; body?: string; tags?: string[] };
    const id = nextId++;
    const note: Record<string, unknown> = { id, title: o.title, body: o.body ?? '' };
    if (o.tags && o.tags.length > 0) note.tags = o.tags;
    note.created_at = new Date().toISOString();
    res.writeHead(201, { 'content-type': 'application/json; charset=utf-8', location: `/notes/${id}` });
    res.end(JSON.stringify(note));
  });
});

await listenForBench(server, () => new Promise<void>((resolve) => server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', resolve)));
