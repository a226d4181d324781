/**
 * Bench server: a hand-written Fastify route doing the work of the generated
 * `POST /notes` binding + validation path with a JSON schema, the handler
 * returning without touching the database. The yardstick of `npm run bench`.
 *
 * It answers with the same headers as bindery — `X-Request-ID` (the
 * incoming one when valid, else a fresh UUID) and the security headers of
 * production — set the cheapest way, in the handler, so both servers write
 * the same response. `BENCH_BARE=1` leaves them out (an extra row of the
 * bench, to show what they cost).
 */
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { listenForBench } from './listen.js';
import { noteSchema } from './note-rules.js';

const bare = process.env.BENCH_BARE === '1';
const VALID_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const app = Fastify({
  logger: false,
  genReqId: (req) => {
    const incoming = req.headers['x-request-id'];
    return typeof incoming === 'string' && VALID_ID.test(incoming) ? incoming : randomUUID();
  },
});
const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cross-origin-opener-policy': 'same-origin',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
};

interface NoteBody {
  title: string;
  body?: string;
  tags?: string[];
}

let nextId = 1;

app.post<{ Body: NoteBody }>('/notes', { schema: { body: noteSchema } }, async (request, reply) => {
  if (!bare) reply.header('x-request-id', request.id).headers(SECURITY_HEADERS);
  const { title, body = '', tags = [] } = request.body;
  if (title.replace(/\s+/g, '').toLowerCase() === 'untitled') {
    return reply
      .code(422)
      .type('application/problem+json')
      .send({
        type: 'about:blank',
        title: 'Unprocessable Content',
        status: 422,
        detail: 'The given data was invalid.',
        errors: { title: 'The title field must not be "untitled".' },
      });
  }
  const id = nextId++;
  const note: Record<string, unknown> = { id, title, body };
  if (tags.length > 0) note.tags = tags;
  note.created_at = new Date().toISOString();
  reply.code(201).header('location', `/notes/${id}`);
  return note;
});

await listenForBench(app.server, () => app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) }));
