/**
 * The `rateLimit:`, `bodyLimit:` and `cors:` keys: resolved into the route table, and
 * wrong values reported at their file:line:column.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatDiagnostic, generate } from '../../generator/index.js';
import { parseRate } from '../../generator/model/access.js';
import { tempProject, type TempProject } from './support.js';

const projects: TempProject[] = [];
afterAll(async () => {
  for (const p of projects) await p.remove();
});

async function run(yaml: string): Promise<{ errors: string[]; routes: string }> {
  const project = await tempProject({ 'schema/a.yaml': yaml });
  projects.push(project);
  const result = await generate({ root: project.root });
  const routes = result.ok ? await readFile(join(project.root, 'generated/routes.ts'), 'utf8') : '';
  return { errors: result.diagnostics.map(formatDiagnostic), routes };
}

const group = (extra: string) => `groups:
  api:
    middleware: [token]
${extra}
routes:
  a.one:
    method: POST
    path: /one
    group: api
    result: noContent
`;

describe('rateLimit | syntax', () => {
  it('reads count/window in several spellings', () => {
    expect(parseRate('5/minute')).toEqual({ limit: 5, windowMs: 60_000 });
    expect(parseRate('100/hour')).toEqual({ limit: 100, windowMs: 3_600_000 });
    expect(parseRate('10/30s')).toEqual({ limit: 10, windowMs: 30_000 });
    expect(parseRate('1000 / 15 minutes')).toEqual({ limit: 1000, windowMs: 900_000 });
    expect(parseRate('2/day')).toEqual({ limit: 2, windowMs: 86_400_000 });
    expect(parseRate('5 per minute')).toMatch(/is not a rate; write <count>\/<window>/);
    expect(parseRate('0/minute')).toMatch(/must be at least 1/);
    expect(parseRate('5/fortnight')).toMatch(/is not a rate/);
  });

  it('a group limit reaches its routes; a route may give its own or opt out with false', async () => {
    const { errors, routes } = await run(`${group('    rateLimit: 5/minute')}
  a.two:
    method: POST
    path: /two
    group: api
    rateLimit: { rate: 100/hour, by: token }
    result: noContent
  a.three:
    method: POST
    path: /three
    group: api
    rateLimit: false
    result: noContent
`);
    expect(errors).toEqual([]);
    expect(routes).toContain(`name: 'a.one',`);
    const block = (name: string) =>
      routes.slice(routes.indexOf(`name: '${name}'`), routes.indexOf('origin:', routes.indexOf(`name: '${name}'`)) + 200);
    expect(block('a.one')).toContain(`rateLimit: { limit: 5, windowMs: 60000, by: 'ip' }`);
    expect(block('a.two')).toContain(`rateLimit: { limit: 100, windowMs: 3600000, by: 'token' }`);
    expect(block('a.three')).not.toContain('rateLimit');
  });

  it('a wrong rate is reported at its position', async () => {
    const { errors } = await run(`${group('    rateLimit: 5 a minute')}
  a.two:
    method: POST
    path: /two
    rateLimit: { rate: 0/minute }
    result: noContent
`);
    expect(errors).toEqual([
      'schema/a.yaml:4:16: groups.api.rateLimit: "5 a minute" is not a rate; write <count>/<window>, e.g. "5/minute", "100/hour" or "10/30s" (units: second, minute, hour, day or s, m, h, d)',
      'schema/a.yaml:15:24: routes.a.two.rateLimit.rate: the count of "0/minute" must be at least 1',
    ]);
  });

  it('an unknown "by" is reported at its position', async () => {
    const { errors } = await run(`${group('    rateLimit: { rate: 5/minute, by: cookie }')}`);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^schema\/a\.yaml:4:\d+: groups\.api\.rateLimit\.by: .*ip.*user.*token/);
  });
});

describe('bodyLimit | syntax', () => {
  it('a group limit reaches its routes, a route gives its own; sizes with units become bytes', async () => {
    const { errors, routes } = await run(`${group('    bodyLimit: 64KiB')}
  a.two:
    method: POST
    path: /two
    group: api
    bodyLimit: 2mb
    result: noContent
  a.three:
    method: POST
    path: /three
    bodyLimit: 4096
    result: noContent
  a.four:
    method: POST
    path: /four
    result: noContent
`);
    expect(errors).toEqual([]);
    const block = (name: string) =>
      routes.slice(routes.indexOf(`name: '${name}'`), routes.indexOf('origin:', routes.indexOf(`name: '${name}'`)) + 200);
    expect(block('a.one')).toContain('bodyLimit: 65536');
    expect(block('a.two')).toContain('bodyLimit: 2000000');
    expect(block('a.three')).toContain('bodyLimit: 4096');
    expect(block('a.four')).not.toContain('bodyLimit');
  });

  it('a value that is not a size is reported at its position', async () => {
    const { errors } = await run(`${group('    bodyLimit: 64 kilobytes')}
  a.two:
    method: POST
    path: /two
    bodyLimit: 0
    result: noContent
`);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/^schema\/a\.yaml:4:16: groups\.api\.bodyLimit: /);
    expect(errors[1]).toMatch(/^schema\/a\.yaml:15:16: routes\.a\.two\.bodyLimit: /);
  });
});

describe('cors | checks', () => {
  it('fills in the defaults', async () => {
    const { errors, routes } = await run(group('    cors: { origins: ["https://app.example.com"], credentials: true }'));
    expect(errors).toEqual([]);
    expect(routes).toMatch(/cors: \{\s+origins: \['https:\/\/app.example.com'\],\s+credentials: true,\s+maxAge: 600,/);
  });

  it('refuses "*" with credentials, and an origin with a path, at their positions', async () => {
    const { errors } = await run(group('    cors: { origins: ["*", "https://app.example.com/"], credentials: true }'));
    expect(errors).toEqual([
      'schema/a.yaml:4:23: groups.api.cors.origins[0]: an origin of "*" cannot go with credentials: true (browsers refuse it, and it would let any site act with the user\'s cookies); list the origins',
      'schema/a.yaml:4:28: groups.api.cors.origins[1]: "https://app.example.com/" is not an origin as browsers send it (no path, no trailing slash, lower case, no default port): write "https://app.example.com"',
    ]);
  });
});

describe('confirmPassword | password confirmation per route', () => {
  const yaml = (value: string, middleware = '[session, csrf, auth, require]') => `groups:
  member:
    middleware: ${middleware}
routes:
  a.one:
    method: DELETE
    path: /one
    group: member
    confirmPassword: ${value}
    result: noContent
`;

  it('a window becomes milliseconds in the route table; true leaves it to AUTH_PASSWORD_TIMEOUT', async () => {
    const minutes = await run(yaml('15m'));
    expect(minutes.errors).toEqual([]);
    expect(minutes.routes).toContain('confirmPassword: 900000');
    const setting = await run(yaml('true'));
    expect(setting.errors).toEqual([]);
    expect(setting.routes).toContain('confirmPassword: true');
  });

  it('a window under a second, or a route whose group has no session, is an error at its position', async () => {
    const short = await run(yaml('500ms'));
    expect(short.errors).toEqual([expect.stringMatching(/^schema\/a\.yaml:9:22: .*at least one second/)]);
    const noSession = await run(yaml('15m', '[token]'));
    expect(noSession.errors).toEqual([expect.stringMatching(/^schema\/a\.yaml:9:5: .*group "member" does not load/)]);
    const bad = await run(yaml('soon'));
    expect(bad.errors).toEqual([expect.stringMatching(/^schema\/a\.yaml:9:22: .*at least one second/)]);
  });
});
