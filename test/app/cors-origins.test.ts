/**
 * The `CORS_ORIGINS` setting (docs/http.md "CORS"; docs/settings.md): over
 * real HTTP against the reference app booted with it, the listed origin
 * replaces the YAML's `http://localhost:5173` on both CORS groups (the
 * documents API and the member routes, which keep their credentials), the
 * CSRF cross-origin layer follows it, routes without `cors:` stay
 * same-origin, and `*` is refused at boot because a group has credentials.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, type Reply } from '../runtime/auth/support/client.js';
import { CROSS_ORIGIN_MESSAGE } from '../../runtime/csrf/csrf-error.js';
import { bootReferenceApp, makeAccount, signIn, type ReferenceApp } from './tokens-support.js';

const SET = 'https://app.example.com';
const YAML_ORIGIN = 'http://localhost:5173';

let a: ReferenceApp;
beforeAll(async () => {
  a = await bootReferenceApp('cors_origins_app', { CORS_ORIGINS: `${SET}, https://admin.example.com` });
});
afterAll(async () => {
  await a?.close();
});

const corsHeaders = (r: Reply): string[] => Object.keys(r.headers).filter((h) => h.startsWith('access-control-'));

function preflight(path: string, origin: string, method = 'POST'): Promise<Reply> {
  return new Client(a.url).send('OPTIONS', path, {
    headers: { origin, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors', 'access-control-request-method': method },
  });
}

describe('CORS_ORIGINS', () => {
  it('allows the origins it lists on every group that declares cors:, keeping each group’s other options', async () => {
    const api = await preflight('/api/documents/12', SET, 'PATCH');
    expect(api.status).toBe(204);
    expect(api.headers['access-control-allow-origin']).toBe(SET);
    expect(api.headers['access-control-allow-credentials']).toBeUndefined();
    const member = await preflight('/logout', 'https://admin.example.com');
    expect(member.status).toBe(204);
    expect(member.headers['access-control-allow-origin']).toBe('https://admin.example.com');
    expect(member.headers['access-control-allow-credentials']).toBe('true');
  });

  it('replaces the YAML’s list: its origin gets no CORS header any more', async () => {
    for (const path of ['/api/documents/12', '/logout']) {
      const r = await preflight(path, YAML_ORIGIN);
      expect(r.status, path).toBe(405);
      expect(corsHeaders(r), path).toEqual([]);
    }
  });

  it('leaves the groups without cors: same-origin', async () => {
    const r = await preflight('/notes', SET);
    expect(r.status).toBe(405);
    expect(corsHeaders(r)).toEqual([]);
  });

  it('is what the CSRF cross-origin layer lets through: a signed-in write from it passes with the token, from the YAML’s origin not', async () => {
    const c = await signIn(a, await makeAccount(a));
    await c.page('/dashboard');
    const headers = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors', 'x-csrf-token': c.token! };
    const yaml = await c.json('POST', '/logout', {}, { ...headers, origin: YAML_ORIGIN });
    expect(yaml.status).toBe(403);
    expect(yaml.json()).toMatchObject({ detail: CROSS_ORIGIN_MESSAGE });
    const listed = await c.json('POST', '/logout', {}, { ...headers, origin: SET });
    expect(listed.status).toBe(303);
    expect(listed.headers['access-control-allow-origin']).toBe(SET);
  });

  it('refuses "*" at boot when a CORS group allows credentials, naming the setting and the group', async () => {
    await expect(bootReferenceApp('cors_origins_any', { CORS_ORIGINS: '*' })).rejects.toThrow(
      /CORS_ORIGINS="\*": the group member declares cors with credentials: true/,
    );
  });
});
