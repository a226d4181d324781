/**
 * Settings the reference app (app/main.ts) needs on top of createTestApp's
 * defaults: the mail-provider plugin's webhook credentials are required
 * (docs/spec.md 5.7: the app does not boot without them).
 *
 * @example createTestApp(app, { databaseUrl, env: { ...referenceAppEnv } })
 */
export const referenceAppEnv: Readonly<Record<string, string>> = Object.freeze({
  MAILPROVIDER_WEBHOOK_USER: 'mailprovider',
  MAILPROVIDER_WEBHOOK_PASSWORD: 'test-webhook-password',
});
