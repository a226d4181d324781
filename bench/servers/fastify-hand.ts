/**
 * Bench server: a hand-written Fastify route doing the work of the generated
 * `POST /notes` binding + validation path with a JSON schema, the handler
 * returning without touching the database. The yardstick of `npm run bench`.
 */
import Fastify from 'fastify';
import { listenForBench } from './listen.js';

const app = Fastify({ logger: false });

const bodySchema = {
  type: 'object',
  required: ['title'],
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' },
    body: { type: 'string', maxLength: 10000 },
    tags: { type: 'array', maxItems: 5, uniqueItems: true, items: { type: 'string', pattern: '^[\\p{L}\\p{M}\\p{N}_-]+$' } },
  },
} as const;

interface NoteBody { title: string; body?: string; tags?: string[] }

let nextId = 1;

app.post<{ Body: NoteBody }>('/notes', { schema: { body: bodySchema } }, async (request, reply) => {
  const { title, body = '', tags = [] } = request.body;
  if (title.replace(/\s+/g, '').toLowerCase() === 'untitled') {
    return reply.code(422).type('application/problem+json').send({ type: 'about:blank', title: 'Unprocessable Content', status: 422, detail: 'The given data was invalid.', errors: { title: 'The title field must not be "untitled".' } });
  }
  const id = nextId++;
  const note: Record<string, unknown> = { id, title, body };
  if (tags.length > 0) note.tags = tags;
  note.created_at = new Date().toISOString();
  reply.code(201).header('location', `/notes/${id}`);
  return note;
});

await listenForBench(app.server, () => app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) }));
