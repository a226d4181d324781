/**
 * Resolving the access keys of groups and routes: `rateLimit:` (requests per
 * window per client) and `cors:` (cross-origin access), with their checks.
 * See docs/schema-language.md "Rate limits" and "CORS".
 */
import type { RawCors, RawRateLimit } from '../language/raw.js';
import type { CorsPlan, RateLimitPlan } from '../../runtime/routing/route-table.js';
import type { DataPath } from '../load/node-position.js';
import { parseByteSize } from '../../runtime/support/size.js';
import type { Reporter } from './reporter.js';

/** Window units of a rate, in ms. */
const UNITS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1_000,
  sec: 1_000,
  second: 1_000,
  m: 60_000,
  min: 60_000,
  minute: 60_000,
  h: 3_600_000,
  hour: 3_600_000,
  d: 86_400_000,
  day: 86_400_000,
};

const RATE = /^\s*(\d+)\s*\/\s*(\d+)?\s*([a-z]+)\s*$/;

/** Request headers a CORS group allows by default (besides the CORS-safelisted ones). */
export const DEFAULT_CORS_HEADERS: readonly string[] = ['Authorization', 'Content-Type', 'X-CSRF-Token', 'X-Requested-With'];
/** Response headers a CORS group exposes to scripts by default. */
export const DEFAULT_CORS_EXPOSE: readonly string[] = [
  'Location',
  'Retry-After',
  'X-Request-ID',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
];
/** Default `Access-Control-Max-Age`, seconds. */
export const DEFAULT_CORS_MAX_AGE = 600;

/**
 * Parse a rate such as `5/minute`, `100/hour`, `10/30s` or `1000/15 minutes`.
 * @returns the count and window, or a message saying what is wrong.
 */
export function parseRate(text: string): { limit: number; windowMs: number } | string {
  const match = RATE.exec(text);
  const word = match?.[3];
  const unit = word === undefined ? undefined : (UNITS[word] ?? (word.endsWith('s') ? UNITS[word.slice(0, -1)] : undefined));
  if (!match || unit === undefined) {
    return `"${text}" is not a rate; write <count>/<window>, e.g. "5/minute", "100/hour" or "10/30s" (units: second, minute, hour, day or s, m, h, d)`;
  }
  const limit = Number(match[1]);
  const windowMs = Number(match[2] ?? '1') * unit;
  if (!Number.isSafeInteger(limit) || limit < 1) return `the count of "${text}" must be at least 1`;
  if (windowMs < 1_000 || windowMs > 31 * 86_400_000) return `the window of "${text}" must be between 1 second and 31 days`;
  return { limit, windowMs };
}

/**
 * Resolve `rateLimit:` at `path` (a group's or a route's).
 * @returns the plan, `false` for an explicit `false`, `undefined` when absent or wrong (errors go to `r`).
 */
export function resolveRateLimit(r: Reporter, path: DataPath, raw: RawRateLimit | undefined): RateLimitPlan | false | undefined {
  if (raw === undefined || raw === false) return raw;
  if (raw === true) {
    r.error(
      path,
      "rateLimit: true says no rate; write one, e.g. rateLimit: 5/minute (or false to turn off the group's limit for this route)",
      'value',
    );
    return undefined;
  }
  const text = typeof raw === 'string' ? raw : raw.rate;
  const parsed = parseRate(text);
  if (typeof parsed === 'string') {
    r.error(typeof raw === 'string' ? path : [...path, 'rate'], parsed, 'value');
    return undefined;
  }
  return { ...parsed, by: typeof raw === 'string' ? 'ip' : (raw.by ?? 'ip') };
}

/**
 * Resolve `bodyLimit:` at `path` (a group's or a route's): a number of bytes
 * or a size with a unit (`64KiB`, `2MiB`, `1MB`).
 * @returns bytes, or `undefined` when absent or wrong (errors go to `r`).
 */
export function resolveBodyLimit(r: Reporter, path: DataPath, raw: string | number | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const bytes = typeof raw === 'number' ? raw : parseByteSize(raw);
  if (bytes === undefined || !Number.isSafeInteger(bytes) || bytes < 1) {
    r.error(path, `bodyLimit "${raw}" is not a size; write bytes or a size with a unit, e.g. 64KiB, 2MiB or 1MB`, 'value');
    return undefined;
  }
  return bytes;
}

/**
 * Resolve a group's `cors:`: origins must be `scheme://host[:port]` (or `*`,
 * which cannot go with credentials); defaults filled in.
 * @returns the plan, or undefined when absent or wrong (errors go to `r`).
 */
export function resolveCors(r: Reporter, path: DataPath, raw: RawCors | undefined): CorsPlan | undefined {
  if (raw === undefined) return undefined;
  let ok = true;
  raw.origins.forEach((origin, i) => {
    if (origin === '*') {
      if (raw.credentials === true) {
        ok = false;
        r.error(
          [...path, 'origins', i],
          'an origin of "*" cannot go with credentials: true (browsers refuse it, and it would let any site act with the user\'s cookies); list the origins',
          'value',
        );
      }
      return;
    }
    const problem = originProblem(origin);
    if (problem !== undefined) {
      ok = false;
      r.error([...path, 'origins', i], problem, 'value');
    }
  });
  if (!ok) return undefined;
  return {
    origins: [...raw.origins],
    credentials: raw.credentials ?? false,
    maxAge: raw.maxAge ?? DEFAULT_CORS_MAX_AGE,
    headers: [...(raw.headers ?? DEFAULT_CORS_HEADERS)],
    exposeHeaders: [...(raw.exposeHeaders ?? DEFAULT_CORS_EXPOSE)],
  };
}

function originProblem(origin: string): string | undefined {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return `"${origin}" is not an origin; write scheme://host[:port], e.g. https://app.example.com`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `"${origin}" is not an http(s) origin; write e.g. https://app.example.com`;
  if (url.origin !== origin)
    return `"${origin}" is not an origin as browsers send it (no path, no trailing slash, lower case, no default port): write "${url.origin}"`;
  return undefined;
}
