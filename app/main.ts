/**
 * The reference application: what `npm start` serves.
 *
 * Routes and types come from `schema/*.yaml` through `bindery generate`;
 * handlers and views live in `app/`.
 */
import { fileURLToPath } from 'node:url';
import { defineApp } from 'bindery/app';
import { assets } from 'bindery/assets';
import { session } from 'bindery/session';
import { cache } from 'bindery/cache';
import { auth } from 'bindery/auth';
import { audit } from 'bindery/audit';
import { trackedResources } from '../generated/audit.js';
import { routes } from '../generated/routes.js';
import { plugins as pluginList } from '../generated/plugins.js';
import { events } from 'bindery/events';
import { jobs } from 'bindery/jobs';
import { plugins } from 'bindery/plugins';
import { schedule } from 'bindery/schedule';
import { scheduledTasks } from './schedule.js';
import { PruneCommand } from './commands/prune.js';
import { handlers } from './handlers/index.js';
import { databaseUsers } from './auth/users.js';
import { links } from 'bindery/auth/links';
import { oauth } from 'bindery/auth/oauth';
import { tokens } from 'bindery/auth/tokens';
import { passwordConfirmation } from 'bindery/auth/confirm';
import { devices } from 'bindery/auth/devices';
import { passkeys } from 'bindery/auth/passkeys';
import { profile } from 'bindery/auth/profile';
import { twoFactor } from 'bindery/auth/two-factor';
import { mail } from 'bindery/mail';
import { i18n } from 'bindery/i18n';
import { apiDocs } from 'bindery/http';
import { mcp } from 'bindery/mcp';
import { authorization } from 'bindery/authorization';
import { policies } from '../generated/policies.js';
import { usersPolicy } from './policies/users.js';
import { storage } from 'bindery/storage';
import { observability } from 'bindery/observability';
import { backOffice } from 'bindery/back-office';
import { newestUsers } from './back-office.js';
import { sections } from '../generated/back-office.js';

export default defineApp({
  name: 'bindery',
  root: fileURLToPath(new URL('..', import.meta.url)),
  routes,
  handlers,
  viewsDir: 'app/views',
  migrations: [{ source: 'app', dir: 'generated/migrations' }],
  commands: [PruneCommand],
  setup: [
    observability(),
    audit({ tracked: trackedResources, prunable: { Document: '30d' } }),
    cache(),
    storage(),
    session(),
    auth({ users: ({ db }) => databaseUsers(db) }),
    // Messages in the request's locale: catalogs in runtime/i18n/lang, the plugins' and lang/ (docs/i18n.md).
    i18n({ plugins: pluginList }),
    mail(),
    tokens(),
    authorization({ policies, definitions: [usersPolicy] }),
    jobs(),
    links(),
    oauth({ providers: ['example'] }),
    assets(),
    profile(),
    passwordConfirmation(),
    devices(),
    twoFactor(),
    passkeys(),
    apiDocs(),
    // The routes with mcp: true as MCP tools at /mcp, for agents with an API token (docs/mcp.md).
    mcp(),
    schedule({ tasks: scheduledTasks }),
    events(),
    backOffice({ sections, home: newestUsers }),
    ...plugins(pluginList),
  ],
});
