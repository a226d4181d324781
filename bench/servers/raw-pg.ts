/**
 * Bench server: raw `node:http` + `pg`, by hand — the routes of
 * bench/servers/peer-work.ts with the body parsed and checked by hand, no
 * framework, no schema compiler. The practical limit for this work.
 */
import { createServer, type ServerResponse } from 'node:http';
import { listenForBench } from './listen.js';
import { checkNote } from './note-rules.js';
import {
  badCursor,
  createNote,
  invalid,
  listNotes,
  requestId,
  SECURITY_HEADERS,
  showDocument,
  untitled,
  type NoteInput,
} from './peer-work.js';

function send(res: ServerResponse, status: number, rid: string, type: string, body: string, extra?: Record<string, string>): void {
  res.writeHead(status, {
    'x-request-id': rid,
    ...SECURITY_HEADERS,
    ...extra,
    'content-type': type,
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}
const JSON_TYPE = 'application/json; charset=utf-8';
const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';
const fail = (res: ServerResponse, rid: string, err: unknown) => send(res, 500, rid, 'text/plain', String(err));

const server = createServer((req, res) => {
  const rid = requestId(req.headers['x-request-id']);
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  if (req.method === 'POST' && path === '/notes') {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let input: unknown;
      try {
        input = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        send(res, 400, rid, PROBLEM_TYPE, '{}');
        return;
      }
      const errors = checkNote(input) ?? untitled(input as NoteInput);
      if (errors !== null) {
        send(res, 422, rid, PROBLEM_TYPE, invalid(errors, rid));
        return;
      }
      createNote(input as NoteInput).then(
        ({ json, location }) => send(res, 201, rid, JSON_TYPE, json, { location }),
        (err) => fail(res, rid, err),
      );
    });
    return;
  }
  if (req.method === 'GET' && path === '/notes') {
    const query = new URLSearchParams(q === -1 ? '' : url.slice(q + 1));
    const raw = query.get('limit');
    const limit = raw === null ? 20 : Number(raw);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
      send(res, 422, rid, PROBLEM_TYPE, invalid({ limit: 'The limit field must be between 1 and 100.' }, rid));
      return;
    }
    listNotes(limit, query.get('cursor') ?? undefined).then(
      (json) => (json === undefined ? send(res, 400, rid, PROBLEM_TYPE, badCursor(rid)) : send(res, 200, rid, JSON_TYPE, json)),
      (err) => fail(res, rid, err),
    );
    return;
  }
  const doc = req.method === 'GET' ? /^\/api\/documents\/(\d+)$/.exec(path) : null;
  if (doc !== null) {
    showDocument(req.headers.authorization, Number(doc[1]), rid).then(
      (a) =>
        send(
          res,
          a.status,
          rid,
          a.problem ? PROBLEM_TYPE : JSON_TYPE,
          a.body,
          a.challenge === undefined ? undefined : { 'www-authenticate': a.challenge },
        ),
      (err) => fail(res, rid, err),
    );
    return;
  }
  send(res, 404, rid, PROBLEM_TYPE, '{}');
});

await listenForBench(server, () => new Promise<void>((resolve) => server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', resolve)));
