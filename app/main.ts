/**
 * The reference application: what `npm start` serves.
 *
 * Routes and types come from `schema/*.yaml` through `bindery generate`;
 * handlers and views live in `app/`.
 */
import { fileURLToPath } from 'node:url';
import { defineApp } from '../runtime/app/index.js';
import { assets } from '../runtime/assets/index.js';
import { session } from '../runtime/session/index.js';
import { cache } from '../runtime/cache/index.js';
import { auth } from '../runtime/auth/index.js';
import { audit } from '../runtime/audit/index.js';
import { trackedResources } from '../generated/audit.js';
import { routes } from '../generated/routes.js';
import { plugins as pluginList } from '../generated/plugins.js';
import { events } from '../runtime/events/index.js';
import { jobs } from '../runtime/jobs/index.js';
import { plugins } from '../runtime/plugins/index.js';
import { schedule } from '../runtime/schedule/index.js';
import { scheduledTasks } from './schedule.js';
import { PruneCommand } from './commands/prune.js';
import { handlers } from './handlers/index.js';
import { databaseUsers } from './auth/users.js';
import { links } from '../runtime/auth/links/index.js';
import { oauth } from '../runtime/auth/oauth/index.js';
import { tokens } from '../runtime/auth/tokens/index.js';
import { mail } from '../runtime/mail/index.js';
import { apiDocs } from '../runtime/http/index.js';

export default defineApp({
  name: 'bindery',
  root: fileURLToPath(new URL('..', import.meta.url)),
  routes,
  handlers,
  viewsDir: 'app/views',
  migrations: [{ source: 'app', dir: 'generated/migrations' }],
  commands: [PruneCommand],
  setup: [audit({ tracked: trackedResources, prunable: { Document: '30d' } }), cache(), session(), auth({ users: ({ db }) => databaseUsers(db) }), mail(), tokens(), jobs(), links(), oauth({ providers: ['example'] }), assets(), apiDocs(), schedule({ tasks: scheduledTasks }), events(), ...plugins(pluginList)],
});
