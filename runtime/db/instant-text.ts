/**
 * ISO 8601 instant text read as UTC, for the engines and cursors that need
 * an offset applied in JavaScript (MySQL reads no offset in a timestamp's
 * text): `2026-11-24T05:34:03.1+05:30` is `2026-11-24`, `00:04:03`, `.1` in UTC.
 */

const ISO_INSTANT = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)(\.\d+)?\s*(Z|[+-]\d{2}(?::?\d{2})?(?::\d{2})?)?$/i;

/** An instant's UTC day (`YYYY-MM-DD`), time (`HH:MM:SS`) and fraction as written (`.ffffff` or empty). */
export interface UtcInstantParts {
  readonly day: string;
  readonly time: string;
  readonly fraction: string;
}

/**
 * The UTC parts of ISO 8601 text: `Z`, `+00:00` or no offset is UTC already;
 * another offset (hours, minutes, seconds) is applied to the seconds, the
 * fraction kept as written.
 * @returns the parts, or `undefined` for text that is no instant.
 */
export function utcInstantParts(text: string): UtcInstantParts | undefined {
  const m = ISO_INSTANT.exec(text.trim());
  if (m === null) return undefined;
  const [, day, time, fraction = '', zone] = m;
  const whole = time!.length === 5 ? `${time}:00` : time!;
  const digits = zone === undefined || zone.toUpperCase() === 'Z' ? '' : zone.slice(1).replace(/:/g, '');
  const offsetSeconds =
    (zone?.startsWith('-') ? -1 : 1) *
    (Number(digits.slice(0, 2) || '0') * 3600 + Number(digits.slice(2, 4) || '0') * 60 + Number(digits.slice(4) || '0'));
  if (offsetSeconds === 0) return { day: day!, time: whole, fraction };
  const local = Date.parse(`${day}T${whole}Z`);
  if (Number.isNaN(local)) return undefined;
  const utc = new Date(local - offsetSeconds * 1000).toISOString();
  return { day: utc.slice(0, 10), time: utc.slice(11, 19), fraction };
}
