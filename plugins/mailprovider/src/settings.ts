/**
 * Settings of the mail-provider plugin (docs/spec.md 4.4, 5.7): the HTTP Basic
 * credentials the provider sends with each webhook call (both required: the
 * app does not boot without them), how many wrong ones an address may send
 * in a minute, and how long a delivered record is remembered against replays.
 */
import { randomBytes } from 'node:crypto';
import { defineSettings, durationSetting, integerSetting, stringSetting } from 'bindery/config';

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
  MAILPROVIDER_WEBHOOK_FAILURES: {
    description:
      'Wrong webhook credentials allowed from one IP address in a minute; past it, the address gets 429 with Retry-After until the minute ends (right credentials included). Counted in the cache.',
    parser: integerSetting({ min: 1, max: 10000 }),
    default: '10',
  },
  MAILPROVIDER_REPLAY_WINDOW: {
    description:
      'How long a received record (its MessageID and event) is remembered: the same record again within it is answered 204 and not queued.',
    parser: durationSetting({ min: 60_000 }),
    default: '168h',
  },
});
