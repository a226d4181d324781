/**
 * Settings of the mail-provider plugin (SPEC 4.4, 5.7): the HTTP Basic
 * credentials the provider sends with each webhook call. Both are required:
 * the app does not boot without them.
 */
import { randomBytes } from 'node:crypto';
import { defineSettings, stringSetting } from 'bindery/config';

export const mailproviderSettings = defineSettings({
  MAILPROVIDER_WEBHOOK_USER: {
    description: 'User name the mail provider sends with each webhook call (HTTP Basic).',
    parser: stringSetting(),
    required: true,
    example: 'mailprovider',
    generate: () => 'mailprovider',
  },
  MAILPROVIDER_WEBHOOK_PASSWORD: {
    description: 'Password the mail provider sends with each webhook call (HTTP Basic); make it long and random.',
    parser: stringSetting(),
    required: true,
    secret: true,
    generate: () => randomBytes(24).toString('base64url'),
  },
});
