/**
 * The `authorization()` step at boot (docs/authorization.md "Setting it
 * up"): an app whose routes have policies needs it; its TypeScript
 * definitions must match the schema's `code` actions; `AUDIT_DENIALS=true`
 * needs `audit()` before it. Each stops the boot with its code and a
 * message saying what to change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import app from '../../app/main.js';
import { defineApp, createTestApp } from '../../runtime/app/index.js';
import { authorization } from '../../runtime/authorization/index.js';
import { policies } from '../../generated/policies.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { referenceAppEnv } from '../support/reference-app-env.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase('authz_boot');
});
afterAll(async () => {
  await database?.drop();
});

/** The reference app with its setup list changed by `change`. */
function variant(change: (steps: typeof app.setup) => typeof app.setup) {
  return defineApp({ ...app, setup: change(app.setup) });
}

const boot = (env: Record<string, string> = {}, changed = app) =>
  createTestApp(changed, { databaseUrl: database.url, env: { ...referenceAppEnv, ...env } }).then(async (t) => {
    await t.close();
    return 'booted';
  });

describe('authorization() | boot checks', () => {
  it('an app whose routes have policies, without authorization(), does not boot', async () => {
    // Without the back office too, which needs authorization() before it.
    const without = variant((steps) => steps.filter((s) => s.name !== 'authorization' && s.name !== 'backOffice'));
    await expect(boot({}, without)).rejects.toMatchObject({ code: 'BINDERY_SERVICE_NOT_SET_UP' });
    await expect(boot({}, without)).rejects.toThrow(
      /Route "users\.show" \(schema\/accounts\.yaml\) is governed by the policy users\.view, but the app has no policies: add authorization\(\{ policies \}\)/,
    );
  });

  it('definitions that miss a code action stop the boot (BINDERY_POLICY_INVALID), naming the action', async () => {
    const missing = variant((steps) => steps.map((s) => (s.name === 'authorization' ? authorization({ policies }) : s)));
    await expect(boot({}, missing)).rejects.toMatchObject({ code: 'BINDERY_POLICY_INVALID' });
    await expect(boot({}, missing)).rejects.toThrow(
      'users.view is marked "code" in the schema, but no definePolicy("users", { view: … }) was given to authorization()',
    );
  });

  it('AUDIT_DENIALS=true with audit() after authorization() stops the boot; false or in order, it boots', async () => {
    // audit() just after authorization() (still before the back office, which needs it).
    const late = variant((steps) =>
      steps
        .filter((s) => s.name !== 'audit')
        .flatMap((s) => (s.name === 'authorization' ? [s, steps.find((a) => a.name === 'audit')!] : [s])),
    );
    await expect(boot({ AUDIT_DENIALS: 'true' }, late)).rejects.toMatchObject({ code: 'BINDERY_SETUP_INVALID' });
    await expect(boot({ AUDIT_DENIALS: 'true' }, late)).rejects.toThrow(
      'AUDIT_DENIALS=true records refused requests in the audit log: put audit() before authorization() in the setup list.',
    );
    expect(await boot({ AUDIT_DENIALS: 'false' }, late)).toBe('booted');
    expect(await boot({ AUDIT_DENIALS: 'true' })).toBe('booted');
  });

  it('AUDIT_DENIALS takes true or false only, named in the boot error', async () => {
    await expect(boot({ AUDIT_DENIALS: 'sometimes' })).rejects.toMatchObject({ code: 'BINDERY_SETTING_INVALID' });
    await expect(boot({ AUDIT_DENIALS: 'sometimes' })).rejects.toThrow(/AUDIT_DENIALS/);
  });
});
