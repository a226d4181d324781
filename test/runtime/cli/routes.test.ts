/**
 * `bindery routes [--json]`: every route the app serves — its route table,
 * and the routes its setup steps and plugins add — with its group and what
 * guards it (docs/cli.md "routes").
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import app from '../../../app/main.js';
import type { RouteListing } from '../../../runtime/cli/commands/routes.js';
import { runCliInProcess } from './run-cli.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('bindery routes | the routes of the reference app', () => {
  // Read from the app module: no database, no settings.
  const env = {};

  it("--json: each route of the table with its method, path, group, middleware, abilities and policy; and each plugin's routes at its mount", async () => {
    const r = await runCliInProcess(['routes', '--json'], { cwd: ROOT, env });
    expect(r.code).toBe(0);
    const listing = JSON.parse(r.stdout) as RouteListing[];
    for (const route of app.routes) {
      expect(listing.find((l) => l.name === route.name)).toEqual({
        method: route.method,
        path: route.path,
        name: route.name,
        group: route.group,
        middleware: route.middleware,
        abilities: route.abilities ?? [],
        policy: route.authorize ? `${route.authorize.policy}.${route.authorize.action}` : null,
        origin: route.origin,
      });
    }
    // The plugin's webhook, at its mount.
    expect(listing.find((l) => l.path === '/mailprovider/webhook')).toMatchObject({
      method: 'POST',
      origin: 'plugin mailprovider: schema/mailprovider.yaml',
    });
    expect(listing.length).toBeGreaterThan(app.routes.length);
    const paths = listing.map((l) => l.path);
    expect(paths).toEqual([...paths].sort());
  });

  it('prints a table: METHOD, PATH, NAME, GROUP, MIDDLEWARE, ABILITIES, POLICY, then the count', async () => {
    const r = await runCliInProcess(['routes'], { cwd: ROOT, env });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^METHOD +PATH +NAME +GROUP +MIDDLEWARE +ABILITIES +POLICY$/);
    const update = app.routes.find((route) => route.name === 'documents.update')!;
    const row = lines.find((l) => l.split(/ {2,}/)[2] === 'documents.update');
    expect(row?.split(/ {2,}/)).toEqual([
      update.method,
      update.path,
      'documents.update',
      update.group,
      update.middleware.join(', '),
      update.abilities?.join(', ') ?? '—',
      `${update.authorize!.policy}.${update.authorize!.action}`,
    ]);
    expect(lines.at(-1)).toBe(`${lines.length - 2} routes.`);
  });

  it('is listed in the help, its option values named', async () => {
    const r = await runCliInProcess(['--help'], { cwd: ROOT, env });
    expect(r.stdout).toContain('bindery routes [--json] [--app <file>]');
    const own = await runCliInProcess(['routes', '--help'], { cwd: ROOT, env });
    expect(own.stdout).toMatch(/\n {2}--app <file> {4}The app module/);
  });
});
