/**
 * Parsers for setting values (docs/settings.md "Value formats").
 *
 * Each returns a {@link SettingParser}: `parse` never throws and `allowed`
 * describes the accepted values in words for the one error that lists every
 * bad setting.
 */
import { isIP } from 'node:net';
import { parseDuration } from '../support/duration.js';
import { parseByteSize } from '../support/size.js';
import type { ParseOutcome, SettingParser } from './setting.js';

const ok = <T>(value: T): ParseOutcome<T> => ({ ok: true, value });
const bad = (message?: string): ParseOutcome<never> => (message === undefined ? { ok: false } : { ok: false, message });

/** Any text, as written (trimmed). */
export function stringSetting(): SettingParser<string> {
  return { allowed: 'any text', parse: ok };
}

/**
 * One of a fixed list of words (exact, case-sensitive).
 * @example enumSetting(['development', 'testing', 'production'] as const)
 */
export function enumSetting<const V extends string>(values: readonly V[]): SettingParser<V> {
  return {
    allowed: `one of ${values.join(', ')}`,
    parse: (text) => ((values as readonly string[]).includes(text) ? ok(text as V) : bad()),
  };
}

/** `true`/`false`/`1`/`0` (exactly these, lower case). */
export function booleanSetting(): SettingParser<boolean> {
  return {
    allowed: 'true, false, 1 or 0',
    parse: (text) => (text === 'true' || text === '1' ? ok(true) : text === 'false' || text === '0' ? ok(false) : bad()),
  };
}

/**
 * A decimal integer within bounds (inclusive).
 * @param bounds `min`/`max` (default: the safe integer range).
 */
export function integerSetting(bounds: { readonly min?: number; readonly max?: number } = {}): SettingParser<number> {
  const min = bounds.min ?? Number.MIN_SAFE_INTEGER;
  const max = bounds.max ?? Number.MAX_SAFE_INTEGER;
  const range =
    bounds.min !== undefined && bounds.max !== undefined
      ? `from ${min} to ${max}`
      : bounds.min !== undefined
        ? `of at least ${min}`
        : bounds.max !== undefined
          ? `of at most ${max}`
          : '';
  return {
    allowed: `an integer${range ? ` ${range}` : ''}`,
    parse(text) {
      if (!/^[+-]?\d+$/.test(text)) return bad('not an integer');
      const n = Number(text);
      if (!Number.isSafeInteger(n)) return bad('too large');
      if (n < min) return bad(`below the minimum ${min}`);
      if (n > max) return bad(`above the maximum ${max}`);
      return ok(n);
    },
  };
}

/**
 * A size in bytes: `10485760`, `10MiB`, `512KiB`, `10MB` (KB/MB/GB are powers of 1000, KiB/MiB/GiB of 1024).
 * @param bounds `min`/`max` in bytes (default `min` 0).
 */
export function sizeSetting(bounds: { readonly min?: number; readonly max?: number } = {}): SettingParser<number> {
  return {
    allowed: 'a size in bytes, e.g. 10485760, 10MiB, 512KiB or 10MB (units B, KB, MB, GB, KiB, MiB, GiB)',
    parse(text) {
      const bytes = parseByteSize(text);
      if (bytes === undefined) return bad();
      if (bounds.min !== undefined && bytes < bounds.min) return bad(`below the minimum of ${bounds.min} bytes`);
      if (bounds.max !== undefined && bytes > bounds.max) return bad(`above the maximum of ${bounds.max} bytes`);
      return ok(bytes);
    },
  };
}

/**
 * A duration, parsed by `parseDuration` (`30s`, `2h`, `1h30m`, `250ms`, ISO `PT30S`); the value is in milliseconds.
 * @param bounds `min`/`max` in milliseconds (default `min` 0: negative durations are refused).
 */
export function durationSetting(bounds: { readonly min?: number; readonly max?: number } = {}): SettingParser<number> {
  const min = bounds.min ?? 0;
  return {
    allowed: 'a duration with a unit, e.g. 30s, 2h, 1h30m, 250ms',
    parse(text) {
      const ms = parseDuration(text);
      if (ms === undefined) return bad();
      if (ms < min) return bad(min === 0 ? 'negative' : `shorter than the minimum ${min} ms`);
      if (bounds.max !== undefined && ms > bounds.max) return bad(`longer than the maximum ${bounds.max} ms`);
      return ok(ms);
    },
  };
}

/**
 * An absolute URL, optionally restricted to some protocols (without the colon).
 * @example urlSetting({ protocols: ['http', 'https'] })
 */
export function urlSetting(options: { readonly protocols?: readonly string[] } = {}): SettingParser<URL> {
  const protocols = options.protocols;
  return {
    allowed: protocols ? `an absolute ${orList(protocols)} URL` : 'an absolute URL',
    parse(text) {
      let url: URL;
      try {
        url = new URL(text);
      } catch {
        return bad('not an absolute URL');
      }
      if (protocols && !protocols.includes(url.protocol.slice(0, -1))) return bad(`protocol ${url.protocol} is not allowed`);
      return ok(url);
    },
  };
}

/** `a`, `a or b`, `a, b or c`. */
function orList(items: readonly string[]): string {
  return items.length <= 2 ? items.join(' or ') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/** A listening address: host (name, IPv4, or `[IPv6]`) and port. */
export interface ListenAddress {
  /** Host without brackets: `127.0.0.1`, `0.0.0.0`, `::`, `localhost`. */
  readonly host: string;
  /** Port 0–65535; 0 lets the OS pick a free one. */
  readonly port: number;
}

/** `host:port`, e.g. `127.0.0.1:3000`, `0.0.0.0:8080`, `[::1]:3000`, `localhost:0` (port 0: any free port). */
export function addressSetting(): SettingParser<ListenAddress> {
  return {
    allowed: 'host:port, e.g. 127.0.0.1:3000, 0.0.0.0:8080 or [::1]:3000 (port 0 to 65535)',
    parse(text) {
      const m = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/.exec(text);
      if (!m) return bad();
      const port = Number(m[3]);
      if (port > 65535) return bad(`port ${port} is above 65535`);
      return ok({ host: m[1] ?? m[2]!, port });
    },
  };
}

/**
 * A comma-separated list of items parsed by `item` (spaces around items and empty items ignored).
 * A bad item is reported with its position: `item 2 is …`.
 */
export function listSetting<T>(item: SettingParser<T>): SettingParser<T[]> {
  return {
    allowed: `a comma-separated list, each item ${item.allowed}`,
    parse(text) {
      const values: T[] = [];
      const parts = text
        .split(',')
        .map((p) => p.trim())
        .filter((p) => p !== '');
      for (const [i, part] of parts.entries()) {
        const r = item.parse(part);
        if (!r.ok) return bad(`item ${i + 1} is not valid${r.message ? ` (${r.message})` : ''}`);
        values.push(r.value);
      }
      return ok(values);
    },
  };
}

/** What `HTTP_TRUST_PROXY` may say: trust nothing, every hop, the last N hops, or these addresses/networks. */
export type TrustProxy = boolean | number | string[];

const CIDR = /^(?:(?:\d{1,3}\.){3}\d{1,3}|[0-9a-fA-F:]+)(?:\/\d{1,3})?$/;

/**
 * Which proxies' `X-Forwarded-For`/`-Proto`/`-Host` to believe (Fastify's
 * `trustProxy`): `false` (default: none), `true` (all), a number of hops,
 * or comma-separated addresses and CIDR networks (`10.0.0.0/8,127.0.0.1`).
 */
export function trustProxySetting(): SettingParser<TrustProxy> {
  return {
    allowed: 'false, true, a number of proxy hops, or comma-separated IP addresses or CIDR networks',
    parse(text) {
      if (text === 'false' || text === '0') return ok(false);
      if (text === 'true') return ok(true);
      if (/^\d+$/.test(text)) return ok(Number(text));
      const items = text
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t !== '');
      const wrong = items.find((t) => !CIDR.test(t) || isIP(t.split('/')[0]!) === 0);
      if (items.length === 0 || wrong !== undefined)
        return bad(wrong === undefined ? 'empty' : `"${wrong}" is not an IP address or CIDR network`);
      return ok(items);
    },
  };
}
