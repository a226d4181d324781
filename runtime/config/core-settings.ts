/**
 * The core settings every bindery app reads at boot (docs/settings.md "Core
 * settings"; docs/spec.md 7 rule 2, 5.3, 8 `HTTP_MAX_BODY`).
 */
import { appKeySetting, generateAppKey } from './app-key.js';
import { defineSettings } from './define-settings.js';
import { policySetting } from './content-security-policy.js';
import { corsOriginsSetting } from './cors-origins.js';
import {
  addressSetting,
  booleanSetting,
  durationSetting,
  enumSetting,
  integerSetting,
  listSetting,
  sizeSetting,
  urlSetting,
  trustProxySetting,
} from './parsers.js';
import type { CrossSettingProblem, Env, SettingsValues } from './setting.js';

/** Log levels of `LOG_LEVEL` (pino's, plus `silent`). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Formats of `LOG_FORMAT`: JSON lines, or one readable line per entry (docs/observability.md "Logs"). */
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

const KEY_HINT = 'run "bindery key:generate" to make one';

/**
 * `HTTP_ADDR` when unset: `0.0.0.0:$PORT` when `PORT` holds a valid port (as
 * platforms that set `PORT` expect: they route to the container's public
 * interface), else `127.0.0.1:3000`.
 */
export function defaultHttpAddr(env: Env): string {
  const port = env.PORT?.trim();
  if (port && /^\d{1,5}$/.test(port) && Number(port) <= 65535) return `0.0.0.0:${Number(port)}`;
  return '127.0.0.1:3000';
}

/** The values of `APP_ENV`. */
export const APP_ENVIRONMENTS = ['development', 'testing', 'production'] as const;

/**
 * `APP_ENV` as the boot will read it: the variable when set, else
 * `production` under `NODE_ENV=production`, else `development`
 * (docs/settings.md "One production switch"). Defaults that depend on the
 * environment (the mail driver, the API docs) read it through this, so
 * `NODE_ENV=production` alone is enough for every one of them.
 * @returns the trimmed `APP_ENV` text when set (even an invalid one, which
 *   the `APP_ENV` parser then refuses), else the environment `NODE_ENV` implies.
 */
export function appEnvironment(env: Env): string {
  const given = env.APP_ENV?.trim();
  if (given) return given;
  return env.NODE_ENV?.trim() === 'production' ? 'production' : 'development';
}

/**
 * `APP_URL` when unset: the URL the server prints when it starts —
 * `http://127.0.0.1:3000` by default; the port of `HTTP_ADDR` (or `PORT`)
 * when they choose one, with its host unless that is a wildcard (shown as
 * `127.0.0.1`, as the server prints it). With port 0 (any free port, known
 * only once listening) it stays `http://127.0.0.1:3000`.
 */
export function defaultAppUrl(env: Env): string {
  const fallback = 'http://127.0.0.1:3000';
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/.exec(env.HTTP_ADDR?.trim() || defaultHttpAddr(env));
  if (!m || Number(m[3]) === 0 || Number(m[3]) > 65535) return fallback;
  const host = m[1] ?? m[2]!;
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${Number(m[3])}`;
}

/** The core settings declaration. */
export const coreSettings = defineSettings(
  {
    APP_ENV: {
      description:
        'Where the app runs: decides Secure cookies, HSTS, the mail driver and whether debug pages are allowed. Unset: production under NODE_ENV=production, else development; set to something else under NODE_ENV=production, the boot stops.',
      parser: enumSetting(APP_ENVIRONMENTS),
      default: appEnvironment,
    },
    APP_DEBUG: {
      description:
        'Error pages show the error chain, stack trace and request details (Authorization and Cookie redacted), and the CLI prints stacks. Refused with APP_ENV=production.',
      parser: booleanSetting(),
      default: 'false',
    },
    APP_KEY: {
      description: 'The key that encrypts sessions, remember-me cookies and emailed tokens. All instances of one app share it.',
      parser: appKeySetting(),
      required: true,
      secret: true,
      hint: KEY_HINT,
      generate: generateAppKey,
    },
    APP_PREVIOUS_KEYS: {
      description:
        'Keys retired by key rotation, comma-separated: what they encrypted still decrypts, and is re-encrypted with APP_KEY on its next write.',
      parser: listSetting(appKeySetting()),
      default: '',
      secret: true,
    },
    APP_URL: {
      description:
        'The public base URL of the app; emailed links (verification, password reset) are built on it. Unset: the address the server prints, http://127.0.0.1:3000 by default (the port of HTTP_ADDR or PORT when set).',
      parser: urlSetting({ protocols: ['http', 'https'] }),
      default: defaultAppUrl,
      example: 'https://notes.example.com',
    },
    HTTP_ADDR: {
      description: 'The address the HTTP server listens on. When unset and PORT is set: 0.0.0.0:$PORT.',
      parser: addressSetting(),
      default: defaultHttpAddr,
      example: '0.0.0.0:8080',
    },
    PORT: {
      description:
        'The port platforms such as Heroku, Render or Cloud Run assign; used only when HTTP_ADDR is unset, and then on all interfaces (0.0.0.0).',
      parser: integerSetting({ min: 0, max: 65535 }),
      example: '8080',
    },
    HTTP_TRUST_PROXY: {
      description:
        "Which proxies in front of the app to believe about the client address and protocol (X-Forwarded-For, -Proto, -Host): the client IP feeds login throttling, rate limits and the audit log. Set it when the app runs behind a load balancer or reverse proxy. true or a hop count lets a client that reaches the port directly choose its own address: list the front's addresses unless only the front can reach the port.",
      parser: trustProxySetting(),
      default: 'false',
      example: '10.0.0.0/8',
    },
    HTTP_MAX_BODY: {
      description:
        'The largest request body a route accepts unless it has its own bodyLimit; a route whose input implies less (a login form) gets that smaller limit. A larger body gets 413.',
      parser: sizeSetting({ min: 1 }),
      default: '1MiB',
    },
    HTTP_MAX_JSON_DEPTH: {
      description:
        'How deep a JSON body may nest objects and arrays (the body itself is level 1); a deeper one gets 400 before it is parsed.',
      parser: integerSetting({ min: 1, max: 10_000 }),
      default: '32',
    },
    HTTP_MAX_JSON_KEYS: {
      description:
        'How many object members and array items a JSON body may hold in all (and how many fields a URL-encoded form); more gets 413 before the body is parsed.',
      parser: integerSetting({ min: 1, max: 100_000_000 }),
      default: '10000',
    },
    HTTP_REQUEST_TIMEOUT: {
      description:
        'How long a request may take; a handler still running then gets 503. Also bounds the wait for in-flight requests at shutdown.',
      parser: durationSetting({ min: 1 }),
      default: '30s',
    },
    HTTP_BODY_TIMEOUT: {
      description:
        'How long a client may take to send a whole request, headers and body; a slower one gets 408 and its connection is closed. Unset: HTTP_REQUEST_TIMEOUT.',
      parser: durationSetting({ min: 1 }),
      example: '30s',
    },
    HTTP_HEADERS_TIMEOUT: {
      description:
        'How long a client may take to send the request line and headers (also how long a new connection may stay silent); a slower one gets 408 and its connection is closed. At most HTTP_BODY_TIMEOUT.',
      parser: durationSetting({ min: 1 }),
      default: '10s',
    },
    HTTP_KEEP_ALIVE_TIMEOUT: {
      description:
        "How long an idle keep-alive connection stays open between requests. Behind a load balancer, set it above the balancer's idle timeout.",
      parser: durationSetting({ min: 1 }),
      default: '5s',
    },
    HTTP_CSP: {
      description:
        "The Content-Security-Policy header sent with every response, replacing the app's (and bindery's default strict policy); off sends none. Unset: the app's policy, else the default.",
      parser: policySetting(),
      example: "default-src 'self'; img-src 'self' https://images.example.com",
    },
    CORS_ORIGINS: {
      description:
        "The origins whose pages may call the routes of every group that declares cors: in the YAML, replacing the origins listed there (the other cors: options stay); * allows any origin (refused for a group with credentials: true), none no other origin. Groups without cors: are never affected. Unset: each group's YAML list.",
      parser: corsOriginsSetting(),
      example: 'https://app.example.com,https://admin.example.com',
    },
    DATABASE_URL: {
      description:
        'The database server to use: postgres:// (or postgresql://) for PostgreSQL, mysql:// (or mariadb://) for MySQL 8.0.16+ or MariaDB 10.6+ (see docs/database.md "MySQL and MariaDB" for what runs there yet). Unset: an embedded PostgreSQL is started with its data in .data/postgres, in development and testing only; production refuses to boot without it.',
      parser: urlSetting({ protocols: ['postgres', 'postgresql', 'mysql', 'mariadb'] }),
      secret: true,
      example: 'postgres://bindery:secret@localhost:5432/bindery',
    },
    LOG_LEVEL: {
      description: 'The least severe log level written (on stdout, in the LOG_FORMAT); silent writes none.',
      parser: enumSetting(LOG_LEVELS),
      default: 'info',
    },
    LOG_FORMAT: {
      description:
        'How log lines are written: json (one JSON object a line, for log collectors) or pretty (time, level, message and fields on one readable line). Unset: pretty in development, json otherwise.',
      parser: enumSetting(LOG_FORMATS),
      default: (env) => (appEnvironment(env) === 'development' ? 'pretty' : 'json'),
    },
  },
  {
    check(values, env) {
      const problems: CrossSettingProblem[] = [];
      const nodeEnv = env.NODE_ENV?.trim();
      if (nodeEnv === 'production' && values.APP_ENV !== 'production') {
        problems.push({
          names: ['APP_ENV', 'NODE_ENV'],
          message:
            'NODE_ENV=production runs the production build, and APP_ENV would serve it without production settings (no Secure cookie, debug allowed, mail kept in the outbox); unset APP_ENV (it follows NODE_ENV) or set APP_ENV=production',
        });
      }
      if (values.APP_DEBUG && values.APP_ENV === 'production') {
        problems.push({
          names: ['APP_DEBUG', 'APP_ENV'],
          message: 'debug pages would show stack traces and request details to every visitor; set APP_DEBUG=false in production',
        });
      }
      if (values.APP_ENV === 'production' && values.DATABASE_URL === undefined) {
        problems.push({
          names: ['DATABASE_URL'],
          message:
            'missing: production needs a PostgreSQL server of its own (postgres://user:password@host:5432/database) or a MySQL or MariaDB one (mysql://user:password@host:3306/database); the embedded PostgreSQL is for development and testing only',
        });
      }
      return problems;
    },
  },
);

/** The loaded core settings. */
export type CoreSettings = SettingsValues<typeof coreSettings.specs>;
