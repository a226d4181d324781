import { describe, expect, it } from 'vitest';
import {
  coreSettings,
  defineSettings,
  combineSettings,
  integerSetting,
  SettingsError,
  stringSetting,
} from '../../../runtime/config/index.js';
import { loadSettings } from '../../../runtime/config/load-settings.js';
import { generateAppKey } from '../../../runtime/config/app-key.js';
import { mailSettings } from '../../../runtime/mail/settings.js';

const KEY = generateAppKey();
const load = (env: Record<string, string | undefined>) => loadSettings(coreSettings, { APP_KEY: KEY, ...env });
const problems = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SettingsError);
    expect((error as SettingsError).code).toBe('BINDERY_SETTING_INVALID');
    return (error as SettingsError).problems.map((p) => p.message);
  }
  throw new Error('expected a SettingsError');
};

describe('loadSettings | core settings defaults', () => {
  it('gives every default when only APP_KEY is set', () => {
    const s = load({});
    expect(s.APP_ENV).toBe('development');
    expect(s.APP_DEBUG).toBe(false);
    expect(s.APP_KEY).toHaveLength(32);
    expect(s.APP_PREVIOUS_KEYS).toEqual([]);
    expect(s.APP_URL.href).toBe('http://127.0.0.1:3000/'); // the address the server prints
    expect(s.HTTP_ADDR).toEqual({ host: '127.0.0.1', port: 3000 });
    expect(s.PORT).toBeUndefined();
    expect(s.HTTP_MAX_BODY).toBe(1_048_576);
    expect(s.HTTP_REQUEST_TIMEOUT).toBe(30_000);
    expect(s.DATABASE_URL).toBeUndefined();
    expect(s.LOG_LEVEL).toBe('info');
    expect(Object.isFrozen(s)).toBe(true);
  });

  it('reads and converts given values; empty values count as unset', () => {
    const s = load({
      APP_ENV: 'production',
      HTTP_MAX_BODY: '512KiB',
      HTTP_REQUEST_TIMEOUT: '2m',
      LOG_LEVEL: 'silent',
      DATABASE_URL: 'postgres://db.internal/app',
      APP_URL: '  ',
    });
    expect(s.APP_ENV).toBe('production');
    expect(s.HTTP_MAX_BODY).toBe(524_288);
    expect(s.HTTP_REQUEST_TIMEOUT).toBe(120_000);
    expect(s.LOG_LEVEL).toBe('silent');
    expect(s.DATABASE_URL?.href).toBe('postgres://db.internal/app');
    expect(s.APP_URL.href).toBe('http://127.0.0.1:3000/');
    expect(load({ DATABASE_URL: '' }).DATABASE_URL).toBeUndefined();
  });

  it('DATABASE_URL takes mysql:// and mariadb:// URLs too (the MySQL engine)', () => {
    expect(load({ DATABASE_URL: 'mysql://app:secret@db.internal:3306/app' }).DATABASE_URL?.href).toBe(
      'mysql://app:secret@db.internal:3306/app',
    );
    expect(load({ DATABASE_URL: 'mariadb://app@db.internal/app' }).DATABASE_URL?.href).toBe('mariadb://app@db.internal/app');
  });

  it('PORT without HTTP_ADDR listens on all interfaces; HTTP_ADDR wins over PORT', () => {
    expect(load({ PORT: '8080' }).HTTP_ADDR).toEqual({ host: '0.0.0.0', port: 8080 });
    expect(load({ PORT: '8080', HTTP_ADDR: '127.0.0.1:4000' }).HTTP_ADDR).toEqual({ host: '127.0.0.1', port: 4000 });
  });

  it('APP_PREVIOUS_KEYS holds several keys', () => {
    const a = generateAppKey();
    const b = generateAppKey();
    expect(load({ APP_PREVIOUS_KEYS: `${a}, ${b}` }).APP_PREVIOUS_KEYS).toHaveLength(2);
  });
});

describe('loadSettings | one error listing every bad setting', () => {
  it('lists each bad setting with the value seen and the allowed values', () => {
    let error: unknown;
    try {
      loadSettings(coreSettings, {
        APP_ENV: 'prod',
        APP_DEBUG: 'yes',
        HTTP_MAX_BODY: '10XB',
        HTTP_ADDR: 'localhost',
        PORT: '70000',
        HTTP_REQUEST_TIMEOUT: '30',
        LOG_LEVEL: 'loud',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SettingsError);
    expect((error as Error).message).toBe(
      [
        '8 settings are invalid; the boot stops:',
        '  - APP_ENV="prod": expected one of development, testing, production',
        '  - APP_DEBUG="yes": expected true, false, 1 or 0',
        '  - APP_KEY is missing: expected "base64:" followed by the base64 of exactly 32 random bytes; run "bindery key:generate" to make one',
        '  - HTTP_ADDR="localhost": expected host:port, e.g. 127.0.0.1:3000, 0.0.0.0:8080 or [::1]:3000 (port 0 to 65535)',
        '  - PORT="70000": above the maximum 65535; expected an integer from 0 to 65535',
        '  - HTTP_MAX_BODY="10XB": expected a size in bytes, e.g. 10485760, 10MiB, 512KiB or 10MB (units B, KB, MB, GB, KiB, MiB, GiB)',
        '  - HTTP_REQUEST_TIMEOUT="30": expected a duration with a unit, e.g. 30s, 2h, 1h30m, 250ms',
        '  - LOG_LEVEL="loud": expected one of fatal, error, warn, info, debug, trace, silent',
        'Set them in the environment or in .env (docs/settings.md lists every setting).',
      ].join('\n'),
    );
    expect((error as SettingsError).problems.map((p) => p.names)).toEqual([
      ['APP_ENV'],
      ['APP_DEBUG'],
      ['APP_KEY'],
      ['HTTP_ADDR'],
      ['PORT'],
      ['HTTP_MAX_BODY'],
      ['HTTP_REQUEST_TIMEOUT'],
      ['LOG_LEVEL'],
    ]);
  });

  it('a single problem says "setting is"', () => {
    expect(() => load({ APP_ENV: 'staging' })).toThrow(/^1 setting is invalid; the boot stops:\n {2}- APP_ENV="staging"/);
  });
});

describe('loadSettings | APP_KEY', () => {
  it('missing: names APP_KEY and the command that makes one', () => {
    expect(problems(() => loadSettings(coreSettings, {}))).toEqual([
      'APP_KEY is missing: expected "base64:" followed by the base64 of exactly 32 random bytes; run "bindery key:generate" to make one',
    ]);
  });

  it('malformed: says what is wrong, masks the value, names the command', () => {
    expect(problems(() => loadSettings(coreSettings, { APP_KEY: 'base64:c2hvcnQ=' }))).toEqual([
      'APP_KEY=<secret, 15 characters>: decodes to 5 bytes, not 32; expected "base64:" followed by the base64 of exactly 32 random bytes; run "bindery key:generate" to make one',
    ]);
    expect(problems(() => loadSettings(coreSettings, { APP_KEY: 'my-secret-key' }))).toEqual([
      'APP_KEY=<secret, 13 characters>: does not start with "base64:"; expected "base64:" followed by the base64 of exactly 32 random bytes; run "bindery key:generate" to make one',
    ]);
  });

  it('a bad previous key is named by its position', () => {
    expect(problems(() => load({ APP_PREVIOUS_KEYS: `${generateAppKey()},base64:AAAA` }))).toEqual([
      'APP_PREVIOUS_KEYS=<secret, 63 characters>: item 2 is not valid (decodes to 3 bytes, not 32); expected a comma-separated list, each item "base64:" followed by the base64 of exactly 32 random bytes',
    ]);
  });
});

describe('loadSettings | APP_DEBUG in production', () => {
  it('is refused, naming both settings', () => {
    expect(problems(() => load({ APP_ENV: 'production', APP_DEBUG: 'true', DATABASE_URL: 'postgres://db/app' }))).toEqual([
      'APP_DEBUG="true" with APP_ENV="production": debug pages would show stack traces and request details to every visitor; set APP_DEBUG=false in production',
    ]);
  });

  it('is allowed outside production', () => {
    expect(load({ APP_ENV: 'development', APP_DEBUG: '1' }).APP_DEBUG).toBe(true);
  });
});

describe('loadSettings | APP_URL defaults to the address the server prints', () => {
  it('follows HTTP_ADDR and PORT; a wildcard host is shown as 127.0.0.1; port 0 keeps the default', () => {
    expect(load({ PORT: '8080' }).APP_URL.href).toBe('http://127.0.0.1:8080/');
    expect(load({ HTTP_ADDR: '0.0.0.0:4000' }).APP_URL.href).toBe('http://127.0.0.1:4000/');
    expect(load({ HTTP_ADDR: 'notes.local:4000' }).APP_URL.href).toBe('http://notes.local:4000/');
    expect(load({ HTTP_ADDR: '[::1]:3001' }).APP_URL.href).toBe('http://[::1]:3001/');
    expect(load({ HTTP_ADDR: '127.0.0.1:0' }).APP_URL.href).toBe('http://127.0.0.1:3000/');
    expect(load({ HTTP_ADDR: '0.0.0.0:4000', APP_URL: 'https://notes.example.com' }).APP_URL.href).toBe('https://notes.example.com/');
  });
});

describe('loadSettings | one production switch (NODE_ENV and APP_ENV)', () => {
  const db = { DATABASE_URL: 'postgres://db.internal/app' };
  it('APP_ENV follows NODE_ENV=production when unset, and the defaults that depend on it follow too', () => {
    expect(load({ NODE_ENV: 'production', ...db }).APP_ENV).toBe('production');
    expect(
      loadSettings(mailSettings, { NODE_ENV: 'production', MAIL_HOST: 'smtp.example.com', MAIL_FROM: 'a@example.com' }).MAIL_DRIVER,
    ).toBe('smtp');
    expect(load({ NODE_ENV: 'development' }).APP_ENV).toBe('development');
    expect(load({ NODE_ENV: 'test' }).APP_ENV).toBe('development');
    expect(load({ NODE_ENV: 'production', APP_ENV: 'production', ...db }).APP_ENV).toBe('production');
  });

  it('NODE_ENV=production with APP_ENV set to something else is refused, naming both', () => {
    expect(problems(() => load({ NODE_ENV: 'production', APP_ENV: 'development', ...db }))).toEqual([
      'APP_ENV="development" with NODE_ENV="production": NODE_ENV=production runs the production build, and APP_ENV would serve it without production settings (no Secure cookie, debug allowed, mail kept in the outbox); unset APP_ENV (it follows NODE_ENV) or set APP_ENV=production',
    ]);
    expect(problems(() => load({ NODE_ENV: 'production', APP_ENV: 'testing', ...db }))).toHaveLength(1);
  });

  it('production without DATABASE_URL is refused, naming the setting (no embedded PostgreSQL in production)', () => {
    const expected = [
      'DATABASE_URL: missing: production needs a PostgreSQL server of its own (postgres://user:password@host:5432/database) or a MySQL or MariaDB one (mysql://user:password@host:3306/database); the embedded PostgreSQL is for development and testing only',
    ];
    expect(problems(() => load({ APP_ENV: 'production' }))).toEqual(expected);
    expect(problems(() => load({ NODE_ENV: 'production' }))).toEqual(expected);
    expect(problems(() => load({ NODE_ENV: 'production', DATABASE_URL: '  ' }))).toEqual(expected);
    expect(load({ APP_ENV: 'development' }).DATABASE_URL).toBeUndefined();
  });
});

describe('loadSettings | every problem in one round (cross-setting checks run despite other bad settings)', () => {
  const all = combineSettings(coreSettings, mailSettings);

  it('a first production boot lists the missing APP_KEY, DATABASE_URL, MAIL_HOST and MAIL_FROM together', () => {
    expect(problems(() => loadSettings(all, { NODE_ENV: 'production' }))).toEqual([
      'APP_KEY is missing: expected "base64:" followed by the base64 of exactly 32 random bytes; run "bindery key:generate" to make one',
      'DATABASE_URL: missing: production needs a PostgreSQL server of its own (postgres://user:password@host:5432/database) or a MySQL or MariaDB one (mysql://user:password@host:3306/database); the embedded PostgreSQL is for development and testing only',
      'MAIL_DRIVER with MAIL_HOST: MAIL_DRIVER=smtp needs MAIL_HOST, the SMTP server to send through; set it, or use MAIL_DRIVER=outbox to keep mail in the database',
      'MAIL_DRIVER with MAIL_FROM: MAIL_DRIVER=smtp needs MAIL_FROM, the sender address of every mail (e.g. "Example <no-reply@example.com>")',
    ]);
  });

  it('a combination naming a setting already reported as bad is left out; the others stay', () => {
    expect(
      problems(() => loadSettings(all, { NODE_ENV: 'production', APP_KEY: KEY, DATABASE_URL: 'sqlite://db/app', MAIL_FROM: 'nobody' })),
    ).toEqual([
      'DATABASE_URL=<secret, 15 characters>: protocol sqlite: is not allowed; expected an absolute postgres, postgresql, mysql or mariadb URL',
      'MAIL_FROM="nobody": expected an email address, e.g. app@example.com or "Example <app@example.com>"',
      'MAIL_DRIVER with MAIL_HOST: MAIL_DRIVER=smtp needs MAIL_HOST, the SMTP server to send through; set it, or use MAIL_DRIVER=outbox to keep mail in the database',
    ]);
  });

  it('a check that cannot run without a bad setting is skipped (that setting is reported)', () => {
    const step = defineSettings(
      { LIMIT: { description: 'A limit.', parser: integerSetting({ min: 1, max: 10 }), default: '5' } },
      {
        check: (values) => (values.LIMIT.toFixed() === '5' ? [{ names: ['LIMIT'], message: 'five is not allowed here' }] : []),
      },
    );
    expect(problems(() => loadSettings(combineSettings(coreSettings, step), { LIMIT: '99' }))).toEqual([
      'APP_KEY is missing: expected "base64:" followed by the base64 of exactly 32 random bytes; run "bindery key:generate" to make one',
      'LIMIT="99": above the maximum 10; expected an integer from 1 to 10',
    ]);
    expect(problems(() => loadSettings(step, {}))).toEqual(['LIMIT: five is not allowed here']);
  });
});

describe('defineSettings | declaring settings of another concept', () => {
  const mail = defineSettings({
    MAIL_FROM: { description: 'Sender.', parser: stringSetting(), default: 'app@localhost' },
    MAIL_PORT: { description: 'SMTP port.', parser: integerSetting({ min: 1, max: 65535 }), required: true },
    MAIL_TOKEN: { description: 'API token.', parser: stringSetting(), secret: true },
  });

  it('types and loads them, optional ones undefined', () => {
    const s = loadSettings(mail, { MAIL_PORT: '25' });
    const port: number = s.MAIL_PORT;
    const token: string | undefined = s.MAIL_TOKEN;
    expect([s.MAIL_FROM, port, token]).toEqual(['app@localhost', 25, undefined]);
  });

  it('combined with the core settings, one error lists the problems of both', () => {
    expect(problems(() => loadSettings(combineSettings(coreSettings, mail), { APP_ENV: 'x' }))).toEqual([
      'APP_ENV="x": expected one of development, testing, production',
      'APP_KEY is missing: expected "base64:" followed by the base64 of exactly 32 random bytes; run "bindery key:generate" to make one',
      'MAIL_PORT is missing: expected an integer from 1 to 65535',
    ]);
  });

  it('refuses a declared name twice, a bad name, a required setting with a default', () => {
    expect(() => combineSettings(coreSettings, defineSettings({ APP_ENV: { description: '', parser: stringSetting() } }))).toThrow(
      'combineSettings: the setting APP_ENV is declared twice',
    );
    expect(() => defineSettings({ mailFrom: { description: '', parser: stringSetting() } })).toThrow(
      '"mailFrom" is not an upper-case environment variable name',
    );
    expect(() => defineSettings({ A: { description: '', parser: stringSetting(), required: true, default: 'x' } })).toThrow(
      'A is required and has a default',
    );
  });
});
