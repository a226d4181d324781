/**
 * File names as bindery keeps and shows them (docs/storage.md "File
 * names"): the last path segment, without bidirectional controls or other
 * invisible format and control characters, and a `Content-Disposition`
 * that shows the same name and never fails.
 */
import { describe, expect, it } from 'vitest';
import { contentDisposition } from '../../../runtime/storage/disposition.js';
import { safeFileName } from '../../../runtime/storage/file-ref.js';

describe('safeFileName | invisible characters', () => {
  it('drops the right-to-left override that shows "invoice\\u202Efdp.exe" as "invoiceexe.pdf"', () => {
    expect(safeFileName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
  });

  it('drops every bidirectional control, zero-width character, C0 and C1 control', () => {
    const invisible = [
      ...['\u202A', '\u202B', '\u202C', '\u202D', '\u202E'],
      ...['\u2066', '\u2067', '\u2068', '\u2069'],
      ...['\u200E', '\u200F', '\u061C'],
      ...['\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF', '\u00AD'],
      ...['\u0000', '\u0009', '\u000A', '\u000D', '\u001B', '\u007F', '\u0080', '\u0085', '\u009B', '\u009F'],
      ...['\u2028', '\u2029'],
    ];
    for (const c of invisible) expect(safeFileName(`re${c}port.pdf`), `U+${c.codePointAt(0)!.toString(16)}`).toBe('report.pdf');
    expect(safeFileName(invisible.join(''))).toBe('file');
  });

  it('keeps what is visible: accents, other scripts, emoji, spaces inside', () => {
    expect(safeFileName('rapport été.pdf')).toBe('rapport été.pdf');
    expect(safeFileName('تقرير.pdf')).toBe('تقرير.pdf');
    expect(safeFileName('📎 notes.txt')).toBe('📎 notes.txt');
  });

  it('drops lone surrogates, and never cuts a character in two when shortening to 255', () => {
    expect(safeFileName('a\uD800b.txt')).toBe('ab.txt');
    const long = `${'😀'.repeat(300)}.txt`;
    const kept = safeFileName(long);
    expect([...kept].length).toBe(255);
    expect(kept.endsWith('.txt')).toBe(true);
    expect(() => encodeURIComponent(kept)).not.toThrow();
  });
});

describe('contentDisposition | the shown name', () => {
  it('shows the name without bidirectional controls, in both forms', () => {
    expect(contentDisposition('invoice\u202Efdp.exe', 'application/octet-stream')).toBe('attachment; filename="invoicefdp.exe"');
    expect(contentDisposition('été\u2067.pdf', 'application/pdf')).toBe(
      `attachment; filename="_t_.pdf"; filename*=UTF-8''%C3%A9t%C3%A9.pdf`,
    );
  });

  it('never throws, whatever name an older row holds (a lone surrogate, controls, quotes)', () => {
    expect(contentDisposition('a\uD800"b\r\n.txt', 'text/plain')).toBe(`attachment; filename="a_b.txt"; filename*=UTF-8''a%22b.txt`);
  });
});
