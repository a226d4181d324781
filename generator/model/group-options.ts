/**
 * The options of a group beside its middleware that its routes carry to the
 * runtime: the token middleware's `Authorization` scheme (`token: { scheme }`,
 * docs/tokens.md "The scheme of a group") and the error format (`errors:`,
 * docs/errors.md "Error formats") — and a route's `auth: optional | required`
 * (docs/schema-language.md "Optional authentication").
 */
import type { ErrorFormatPlan } from '../../runtime/routing/route-table.js';
import { RULES } from '../../runtime/validation/rules.js';
import type { RawErrorFormat, RawGroup } from '../language/raw.js';
import type { DataPath } from '../load/node-position.js';
import { didYouMean } from '../suggest.js';
import type { Group } from './model.js';
import type { Reporter } from './reporter.js';

/** The middleware that reads tokens (runtime/auth/tokens). */
const TOKEN = 'token';
/** The guard that refuses guests. */
const REQUIRE = 'require';
/** Middleware that set who the request is. */
const AUTHENTICATING = ['auth', 'token'];

const FORMATS = ['problem', 'lists'];
const KEY_STYLES = ['path', 'leaf'];

/** `groups.<name>.token.scheme`, checked: the group must run `token`. Returns undefined when absent or wrong (reported). */
export function resolveTokenScheme(r: Reporter, path: DataPath, raw: RawGroup): string | undefined {
  if (raw.token === undefined) return undefined;
  if (!raw.middleware.includes(TOKEN)) {
    r.error(
      [...path, 'token'],
      `the scheme is read by the "${TOKEN}" middleware, which this group does not list (middleware: [${raw.middleware.join(', ')}]); add "${TOKEN}" or remove "token"`,
    );
    return undefined;
  }
  return raw.token.scheme;
}

/**
 * `groups.<name>.errors`, checked. Returns `null` for problem details (absent
 * or `problem`), undefined when wrong (reported).
 */
export function resolveErrorFormat(r: Reporter, path: DataPath, raw: RawErrorFormat | undefined): ErrorFormatPlan | null | undefined {
  if (raw === undefined) return null;
  const long = typeof raw === 'string' ? { format: raw } : raw;
  const at: DataPath = typeof raw === 'string' ? path : [...path, 'format'];
  if (!FORMATS.includes(long.format)) {
    r.error(
      at,
      `unknown error format "${long.format}"${didYouMean(long.format, FORMATS)}; expected one of: ${FORMATS.join(', ')}`,
      'value',
    );
    return undefined;
  }
  const options = long as Exclude<RawErrorFormat, string>;
  let ok = true;
  if (long.format === 'problem') {
    for (const key of ['keys', 'other', 'messages'] as const) {
      if (options[key] === undefined) continue;
      ok = false;
      r.error([...path, key], `"${key}" is an option of the lists format; problem details have fixed members (docs/errors.md)`);
    }
    return ok ? null : undefined;
  }
  const keys = options.keys ?? 'path';
  if (!KEY_STYLES.includes(keys)) {
    ok = false;
    r.error(
      [...path, 'keys'],
      `unknown key style "${keys}"${didYouMean(keys, KEY_STYLES)}; expected path (user.email) or leaf (email)`,
      'value',
    );
  }
  for (const rule of Object.keys(options.messages ?? {})) {
    if (Object.hasOwn(RULES, rule)) continue;
    ok = false;
    r.error(
      [...path, 'messages', rule],
      `unknown rule "${rule}"${didYouMean(rule, Object.keys(RULES))}; messages are keyed by rule names (docs/schema-language.md "Validation rules")`,
    );
  }
  if (!ok) return undefined;
  return {
    format: 'lists',
    keys: keys as ErrorFormatPlan['keys'],
    other: options.other ?? 'body',
    ...(options.messages !== undefined && Object.keys(options.messages).length > 0 ? { messages: { ...options.messages } } : {}),
  };
}

/**
 * A route's middleware: its group's, with `auth: optional` leaving the
 * `require` guard out and `auth: required` adding it after the last
 * authenticating middleware. Returns undefined when `auth` cannot apply (reported).
 */
export function routeMiddleware(
  r: Reporter,
  path: DataPath,
  auth: 'optional' | 'required' | undefined,
  group: Group | undefined,
): string[] | undefined {
  const list = [...(group?.middleware ?? [])];
  if (auth === undefined) return list;
  const last = list.reduce((at, m, i) => (AUTHENTICATING.includes(m) ? i : at), -1);
  if (last === -1) {
    r.error(
      [...path, 'auth'],
      `"auth: ${auth}" needs a group that authenticates (middleware "token" or "auth"), ${group ? `which group "${group.name}" does not list (middleware: [${list.join(', ')}])` : 'and the route has no group'}`,
      'value',
    );
    return undefined;
  }
  if (auth === 'optional') return list.filter((m) => m !== REQUIRE);
  if (!list.includes(REQUIRE)) list.splice(last + 1, 0, REQUIRE);
  return list;
}
