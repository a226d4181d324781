/**
 * Duration text → milliseconds (docs/spec.md 4.5 conversions; settings such as
 * `SESSION_LIFETIME=2h` and `HTTP_REQUEST_TIMEOUT=30s`).
 *
 * Accepts Go-style durations — a sequence of decimal numbers each with a unit
 * `ns`, `us` (or `µs`), `ms`, `s`, `m`, `h`, optionally signed: `90s`, `1h30m`,
 * `1.5h`, `250ms`, `-5m` — and ISO 8601 durations with days, hours, minutes
 * and seconds: `PT1H30M`, `P1DT12H`, `PT0.5S` (a day is 24 hours). `0` alone
 * is zero. Units are required otherwise: `30` is refused, so a forgotten unit
 * never means milliseconds by surprise.
 */

const GO_UNITS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

const GO_PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;
const ISO = /^P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/**
 * Parse a duration into milliseconds.
 * @returns milliseconds (may be fractional below 1 ms), or `undefined` when the text is not a duration.
 * @example parseDuration('1h30m') // 5400000
 * @example parseDuration('PT30S') // 30000
 */
export function parseDuration(text: string): number | undefined {
  const s = text.trim();
  if (s === '') return undefined;
  if (s === '0') return 0;
  if (s[0] === 'P') {
    const m = ISO.exec(s);
    if (!m || s === 'P' || s.endsWith('T')) return undefined;
    const [, d, h, min, sec] = m;
    return (Number(d ?? 0) * 86_400 + Number(h ?? 0) * 3_600 + Number(min ?? 0) * 60 + Number(sec ?? 0)) * 1000;
  }
  let i = 0;
  let sign = 1;
  if (s[0] === '-' || s[0] === '+') {
    sign = s[0] === '-' ? -1 : 1;
    i = 1;
  }
  if (i >= s.length) return undefined;
  let total = 0;
  while (i < s.length) {
    GO_PART.lastIndex = i;
    const m = GO_PART.exec(s);
    if (!m) return undefined;
    total += Number(m[1]) * GO_UNITS[m[2]!]!;
    i = GO_PART.lastIndex;
  }
  return sign * total;
}

/**
 * Format milliseconds as a short Go-style duration (`2h`, `1h30m`, `45s`, `250ms`), for messages.
 * @example formatDuration(5_400_000) // "1h30m"
 */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  const sign = ms < 0 ? '-' : '';
  let rest = Math.abs(ms);
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = Math.floor(rest / 1000);
  rest -= s * 1000;
  let out = '';
  if (h) out += `${h}h`;
  if (m) out += `${m}m`;
  if (s) out += `${s}s`;
  if (rest) out += `${Math.round(rest * 1000) / 1000}ms`;
  return sign + out;
}
