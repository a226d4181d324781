/**
 * The error code registry (runtime/errors/codes.ts) against docs/errors.md,
 * in both directions (CONVENTIONS.md "Errors").
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, type ErrorCodeSpec } from '../../../runtime/errors/codes.js';

interface Row { code: string; status: string; cause: string; fix: string }

function documentedRows(): Row[] {
  const markdown = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');
  const rows: Row[] = [];
  for (const line of markdown.split('\n')) {
    const cells = line.trim().split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim());
    if (cells.length !== 4 || !/^BINDERY_[A-Z0-9_]+$/.test(cells[0]!)) continue;
    rows.push({ code: cells[0]!, status: cells[1]!, cause: cells[2]!, fix: cells[3]! });
  }
  return rows;
}

const codes = ERROR_CODES as Record<string, ErrorCodeSpec>;
const rows = documentedRows();

describe('Error registry | codes.ts and docs/errors.md agree', () => {
  it('the table has rows', () => {
    expect(rows.length).toBeGreaterThan(10);
  });

  it('every registered code is documented', () => {
    const documented = new Set(rows.map((r) => r.code));
    expect(Object.keys(codes).filter((c) => !documented.has(c))).toEqual([]);
  });

  it('every documented code is registered', () => {
    expect(rows.map((r) => r.code).filter((c) => !(c in codes))).toEqual([]);
  });

  it('each code is documented once, with its status, a cause and a fix', () => {
    const seen = new Set<string>();
    for (const row of rows) {
      expect(seen.has(row.code), `${row.code} documented twice`).toBe(false);
      seen.add(row.code);
      const status = codes[row.code]?.status;
      expect(row.status, row.code).toBe(status === undefined ? '—' : String(status));
      expect(row.cause.length, `${row.code} cause`).toBeGreaterThan(10);
      expect(row.fix.length, `${row.code} fix`).toBeGreaterThan(5);
    }
  });

  it('registered statuses are HTTP error statuses and summaries are present', () => {
    for (const [code, spec] of Object.entries(codes)) {
      expect(code).toMatch(/^BINDERY_[A-Z0-9_]+$/);
      if (spec.status !== undefined) expect(spec.status >= 400 && spec.status <= 599, code).toBe(true);
      expect(spec.summary.length, code).toBeGreaterThan(5);
    }
  });
});
