/**
 * Bench server: the generated `POST /notes` route of the reference app —
 * generated binding plan, generated ajv standalone validator, the handler's
 * own `validate`, and its real middleware (`session`, `csrf`: the route's
 * group is [session, csrf]) — served by the bindery runtime exactly as
 * `bindery serve` builds it, with the handler returning without touching the
 * database. The load is a cookie-less JSON client (curl-like): the session
 * stays unread and CSRF exempts it, as in production.
 *
 * `BENCH_NO_GROUP=1` serves the route without its group's middleware: the
 * binding + validation path alone, the work the yardstick does.
 */
import { routes } from '../../generated/routes.js';
import { notesHandlers } from '../../app/handlers/notes.js';
import { createHttpServer } from '../../runtime/http/server.js';
import { created } from 'bindery/results';
import { createLogger } from '../../runtime/app/logger.js';
import { combineSettings, coreSettings } from 'bindery/config';
import { loadSettings } from '../../runtime/config/load-settings.js';
import { generateAppKey } from '../../runtime/config/app-key.js';
import { createCsrfMiddleware } from '../../runtime/csrf/csrf-middleware.js';
import { sessionSettings } from '../../runtime/session/settings.js';
import { createSessionMiddleware } from '../../runtime/session/session-middleware.js';
import { BUILT_IN_DRIVERS, createSessionManager } from '../../runtime/session/session-manager.js';
import type { Note } from '../../generated/types.js';
import { listenForBench } from './listen.js';

const logger = createLogger('info', 'bench');
// Settings as `bindery serve` loads them (production: Secure __Host- cookie).
const settings = loadSettings(combineSettings(coreSettings, sessionSettings(Object.keys(BUILT_IN_DRIVERS))), {
  APP_ENV: 'production',
  APP_KEY: generateAppKey(),
});
const sessions = await createSessionManager({ settings, log: logger });

let nextId = 1;
const create = notesHandlers['notes.create'];

const withGroup = process.env.BENCH_NO_GROUP !== '1';
const app = await createHttpServer({
  routes: routes.filter((r) => r.name === 'notes.create').map((r) => (withGroup ? r : { ...r, middleware: [] })),
  handlers: {
    'notes.create': {
      validate: create.validate,
      handle: (input: { title: string; body?: string; tags?: string[] }) => {
        const note: Note = { id: nextId++, title: input.title, body: input.body ?? '', tags: input.tags ?? [], created_at: new Date() };
        return created(note, { location: `/notes/${note.id}` });
      },
    },
  },
  middleware: withGroup ? { session: createSessionMiddleware(sessions), csrf: createCsrfMiddleware() } : {},
  services: {} as never,
  environment: 'production',
  debug: false,
  maxBodyBytes: 10 * 1024 * 1024,
  requestTimeoutMs: 30_000,
  // What `bindery serve` uses: pino at LOG_LEVEL (default info).
  logger,
});

await listenForBench(app.server, () => app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) }));
