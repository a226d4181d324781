/**
 * Plain-text tables for CLI listings (`bindery jobs:failed`,
 * `plugins:list`, `mailprovider:suppressions`).
 */

/**
 * Columns padded to their widest cell, two spaces apart, no trailing spaces;
 * one line per row, each ending in a newline.
 * @param headers the column titles, e.g. `['EMAIL', 'EVENT']`.
 * @param rows cells as text; a row shorter than `headers` is padded with empty cells.
 * @example formatTable(['A', 'B'], [['x', 'yy']]) // 'A  B\nx  yy\n'
 */
export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [headers, ...rows];
  const widths = headers.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  return all
    .map(
      (r) =>
        headers
          .map((_, i) => (i === headers.length - 1 ? (r[i] ?? '') : (r[i] ?? '').padEnd(widths[i]!)))
          .join('  ')
          .trimEnd() + '\n',
    )
    .join('');
}
