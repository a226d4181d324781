/**
 * The value of `CORS_ORIGINS` (docs/settings.md "Core settings"; docs/http.md
 * "CORS"): the origins allowed by every group that declares `cors:` in the
 * YAML, replacing the lists written there.
 */
import type { ParseOutcome, SettingParser } from './setting.js';

const ok = <T>(value: T): ParseOutcome<T> => ({ ok: true, value });
const bad = (message: string): ParseOutcome<never> => ({ ok: false, message });

/**
 * What is wrong with `text` as an origin as browsers send it in `Origin`
 * (`scheme://host[:port]`, http or https, lower case, no path, no default
 * port), or `undefined` when it is one.
 */
export function originProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `"${text}" is not an origin; write scheme://host[:port], e.g. https://app.example.com`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `"${text}" is not an http(s) origin`;
  if (url.origin !== text) return `"${text}" is not an origin as browsers send it: write "${url.origin}"`;
  return undefined;
}

/**
 * `CORS_ORIGINS`: comma-separated origins (`https://app.example.com`), `*`
 * (any origin; alone), or `none` (no other origin at all).
 * @returns the list: `['*']` for `*`, `[]` for `none`.
 */
export function corsOriginsSetting(): SettingParser<string[]> {
  return {
    allowed: 'comma-separated origins as browsers send them (https://app.example.com,http://localhost:5173), or * (any origin), or none',
    parse(text) {
      if (text === 'none') return ok([]);
      const items = text
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t !== '');
      if (items.includes('*')) return items.length === 1 ? ok(['*']) : bad('* allows any origin: give it alone');
      for (const [i, item] of items.entries()) {
        const problem = originProblem(item);
        if (problem !== undefined) return bad(`item ${i + 1}: ${problem}`);
      }
      return items.length === 0 ? bad('empty') : ok([...new Set(items)]);
    },
  };
}
