/**
 * Bench server: hand-written Fastify 5 routes with JSON schemas (ajv) and
 * `pg`, doing the work of the reference app's `POST /notes`, `GET /notes`
 * and token-checked `GET /api/documents/{id}` (bench/servers/peer-work.ts):
 * the yardstick of `npm run bench -- http`. Schema failures are answered as
 * bindery does: 422 problem details with one message per field.
 */
import Fastify, { type FastifyReply } from 'fastify';
import { listenForBench } from './listen.js';
import { noteSchema } from './note-rules.js';
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

const app = Fastify({
  logger: false,
  genReqId: (req) => requestId(req.headers['x-request-id']),
  ajv: { customOptions: { allErrors: true } },
});

/** bindery's message for the first failed rule of each field. */
function fieldErrors(
  errors: ReadonlyArray<{ instancePath: string; keyword: string; params: Record<string, unknown> }>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of errors) {
    const field = e.keyword === 'required' ? String(e.params.missingProperty) : (e.instancePath.split('/')[1] ?? '_');
    if (out[field] !== undefined) continue;
    out[field] =
      field === 'title' && (e.keyword === 'required' || e.keyword === 'minLength' || e.keyword === 'pattern')
        ? 'The title field is required.'
        : e.keyword === 'maxLength'
          ? `The ${field} field must not be greater than ${String(e.params.limit)} characters.`
          : e.keyword === 'maxItems'
            ? `The ${field} field must not have more than ${String(e.params.limit)} items.`
            : e.keyword === 'uniqueItems'
              ? `The ${field} field has a duplicate value.`
              : e.keyword === 'pattern'
                ? `The ${field} field must only contain letters, numbers, dashes, and underscores.`
                : `The ${field} field is invalid.`;
  }
  return out;
}

const headers = (reply: FastifyReply, id: string) => reply.header('x-request-id', id).headers(SECURITY_HEADERS);

app.post<{ Body: NoteInput }>('/notes', { schema: { body: noteSchema }, attachValidation: true }, async (request, reply) => {
  headers(reply, request.id);
  const errors = request.validationError
    ? fieldErrors((request.validationError as unknown as { validation: [] }).validation)
    : untitled(request.body);
  if (errors !== null) return reply.code(422).type('application/problem+json; charset=utf-8').send(invalid(errors, request.id));
  const { json, location } = await createNote(request.body);
  return reply.code(201).header('location', location).type('application/json; charset=utf-8').send(json);
});

app.get<{ Querystring: { limit: number; cursor?: string } }>(
  '/notes',
  {
    schema: {
      querystring: {
        type: 'object',
        properties: { limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 }, cursor: { type: 'string', maxLength: 4096 } },
      },
    },
  },
  async (request, reply) => {
    headers(reply, request.id);
    const json = await listNotes(request.query.limit, request.query.cursor);
    if (json === undefined) return reply.code(400).type('application/problem+json; charset=utf-8').send(badCursor(request.id));
    return reply.type('application/json; charset=utf-8').send(json);
  },
);

app.get<{ Params: { id: number } }>(
  '/api/documents/:id',
  { schema: { params: { type: 'object', properties: { id: { type: 'integer' } } } } },
  async (request, reply) => {
    headers(reply, request.id);
    const answer = await showDocument(request.headers.authorization, request.params.id, request.id);
    if (answer.challenge !== undefined) reply.header('www-authenticate', answer.challenge);
    return reply
      .code(answer.status)
      .type(answer.problem ? 'application/problem+json; charset=utf-8' : 'application/json; charset=utf-8')
      .send(answer.body);
  },
);

await listenForBench(app.server, () => app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) }));
