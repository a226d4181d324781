/**
 * The reference application: what `npm start` serves.
 *
 * Routes and types come from `schema/*.yaml` through `bindery generate`;
 * handlers and views live in `app/`.
 */
import { fileURLToPath } from 'node:url';
import { defineApp } from '../runtime/app/index.js';
import { routes } from '../generated/routes.js';
import { handlers } from './handlers/index.js';

export default defineApp({
  name: 'bindery',
  root: fileURLToPath(new URL('..', import.meta.url)),
  routes,
  handlers,
  viewsDir: 'app/views',
  migrations: [{ source: 'app', dir: 'generated/migrations' }],
});
