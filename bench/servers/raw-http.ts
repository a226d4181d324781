/**
 * Bench server: a raw `node:http` server that parses and checks the
 * `POST /notes` body by hand — no framework, no schema compiler. The
 * practical limit of what Node can do for this request.
 */
import { createServer } from 'node:http';
import { listenForBench } from './listen.js';
import { checkNote } from './note-rules.js';

let nextId = 1;

const server = createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/notes') {
    res.writeHead(404).end();
    return;
  }
  if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
    res.writeHead(415).end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    let input: unknown;
    try {
      input = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      res.writeHead(400).end();
      return;
    }
    const errors = checkNote(input);
    if (errors) {
      res.writeHead(422, { 'content-type': 'application/problem+json' });
      res.end(
        JSON.stringify({ type: 'about:blank', title: 'Unprocessable Content', status: 422, detail: 'The given data was invalid.', errors }),
      );
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
