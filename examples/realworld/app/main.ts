/**
 * The RealWorld (Conduit) API: what `npm start` serves and what the tests boot.
 *
 * Routes and types come from `schema/*.yaml` through `bindery generate`;
 * handlers live in `app/handlers/`. Users sign in with API tokens
 * (`Authorization: Token <token>`, the group `api` of schema/users.yaml)
 * that expire and are capped per user (app/auth/tokens.ts),
 * and the policies of schema/articles.yaml keep articles and comments to
 * their authors.
 */
import { fileURLToPath } from 'node:url';
import { defineApp } from 'bindery/app';
import { auth } from 'bindery/auth';
import { tokens } from 'bindery/auth/tokens';
import { authorization } from 'bindery/authorization';
import { cache } from 'bindery/cache';
import { apiDocs } from 'bindery/http';
import { mcp } from 'bindery/mcp';
import { session } from 'bindery/session';
import { policies } from '../generated/policies.js';
import { routes } from '../generated/routes.js';
import { conduitTokens } from './auth/tokens.js';
import { databaseUsers } from './auth/users.js';
import { handlers } from './handlers/index.js';

export default defineApp({
  name: 'conduit',
  root: fileURLToPath(new URL('..', import.meta.url)),
  routes,
  handlers,
  migrations: [{ source: 'app', dir: 'generated/migrations' }],
  setup: [
    cache(),
    session(),
    auth({ users: ({ db }) => databaseUsers(db) }),
    tokens(),
    conduitTokens(),
    authorization({ policies }),
    apiDocs(),
    // The articles routes (mcp: true) as MCP tools at /mcp (docs/mcp.md).
    mcp(),
  ],
});
