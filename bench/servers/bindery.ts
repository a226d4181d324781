/**
 * Bench server: the generated `POST /notes` route of the reference app —
 * generated binding plan, generated ajv standalone validator, the handler's
 * own `validate` — served by the bindery runtime exactly as `bindery serve`
 * builds it, with the handler returning without touching the database.
 */
import { routes } from '../../generated/routes.js';
import { notesHandlers } from '../../app/handlers/notes.js';
import { createHttpServer } from '../../runtime/http/index.js';
import { created } from '../../runtime/results/index.js';
import { createLogger } from '../../runtime/app/index.js';
import type { Note } from '../../generated/types.js';
import { listenForBench } from './listen.js';

let nextId = 1;
const create = notesHandlers['notes.create'];

const app = await createHttpServer({
  routes: routes.filter((r) => r.name === 'notes.create'),
  handlers: {
    'notes.create': {
      validate: create.validate,
      handle: (input: { title: string; body?: string; tags?: string[] }) => {
        const note: Note = { id: nextId++, title: input.title, body: input.body ?? '', tags: input.tags ?? [], created_at: new Date() };
        return created(note, { location: `/notes/${note.id}` });
      },
    },
  },
  services: {} as never,
  environment: 'production',
  debug: false,
  maxBodyBytes: 10 * 1024 * 1024,
  requestTimeoutMs: 30_000,
  // What `bindery serve` uses: pino at LOG_LEVEL (default info).
  logger: createLogger('info', 'bench'),
});

await listenForBench(app.server, () => app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) }));
