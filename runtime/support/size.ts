/**
 * Size text → bytes, for settings such as `HTTP_MAX_BODY=10MiB`
 * (docs/spec.md 4.5 rule "A body over HTTP_MAX_BODY gives 413"; docs/settings.md).
 *
 * Accepts a whole number of bytes (`10485760`) or a number with a unit:
 * `B`, decimal `KB`/`MB`/`GB` (powers of 1000) and binary `KiB`/`MiB`/`GiB`
 * (powers of 1024); an optional space between number and unit; units are
 * case-insensitive (`10mib`), the `i` keeps them binary. The result must be a
 * whole number of bytes.
 */

const UNITS: Readonly<Record<string, number>> = {
  b: 1,
  kb: 1000,
  mb: 1000 ** 2,
  gb: 1000 ** 3,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
};

const SIZE = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i;

/** The units {@link parseByteSize} accepts, in display order. */
export const BYTE_SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'KiB', 'MiB', 'GiB'] as const;

/**
 * Parse a size into bytes.
 * @returns a non-negative safe integer number of bytes, or `undefined` when the text is not a size
 *   (unknown unit, negative, fractional bytes, beyond `Number.MAX_SAFE_INTEGER`).
 * @example parseByteSize('10MiB') // 10485760
 * @example parseByteSize('10MB')  // 10000000
 */
export function parseByteSize(text: string): number | undefined {
  const m = SIZE.exec(text.trim());
  if (!m) return undefined;
  const unit = (m[2] ?? '').toLowerCase();
  const factor = unit === '' ? 1 : UNITS[unit];
  if (factor === undefined) return undefined;
  const raw = Number(m[1]) * factor;
  const bytes = Math.round(raw);
  if (Math.abs(raw - bytes) > 1e-6 || !Number.isSafeInteger(bytes)) return undefined;
  return bytes;
}

/**
 * Format bytes for messages: the largest binary unit that divides it exactly (`10MiB`, `512KiB`), else bytes.
 * @example formatByteSize(10485760) // "10MiB"
 */
export function formatByteSize(bytes: number): string {
  for (const [unit, factor] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const) {
    if (bytes >= factor && bytes % factor === 0) return `${bytes / factor}${unit}`;
  }
  return `${bytes}B`;
}
