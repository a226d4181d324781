/**
 * The error code registry (runtime/errors/codes.ts) against docs/errors.md,
 * in both directions (docs/errors.md).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, statusOf, type ErrorCodeSpec, type HttpErrorCode } from '../../../runtime/errors/codes.js';
import { BinderyError } from '../../../runtime/errors/bindery-error.js';
import { CodedError, codedErrorClass } from '../../../runtime/errors/coded-error.js';
import { describeError } from '../../../runtime/errors/error-info.js';
import { HttpError } from '../../../runtime/errors/http-error.js';
import { requireService, ServiceNotSetUpError } from '../../../runtime/http/require-service.js';
import type { Services } from '../../../runtime/http/context.js';

interface Row {
  code: string;
  status: string;
  cause: string;
  fix: string;
}

function documentedRows(): Row[] {
  const markdown = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');
  const rows: Row[] = [];
  for (const line of markdown.split('\n')) {
    const cells = line
      .trim()
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((c) => c.trim());
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

describe('Error registry | the single source of codes and statuses', () => {
  const withStatus = Object.entries(codes).filter(([, spec]) => spec.status !== undefined);

  it("an HttpError built from a code answers the registry's status and carries the code", () => {
    expect(withStatus.length).toBeGreaterThan(20);
    for (const [code, spec] of withStatus) {
      const error = new HttpError(code as HttpErrorCode, 'x');
      expect([error.status, error.code], code).toEqual([spec.status, code]);
      expect(describeError(error, false).status, code).toBe(spec.status);
    }
  });

  it('a BinderyError answers the status of its code; codes without one answer 500', () => {
    expect(new BinderyError('BINDERY_UNKNOWN_ROUTE', 'x').status).toBe(statusOf('BINDERY_UNKNOWN_ROUTE'));
    expect(describeError(new BinderyError('BINDERY_TOKEN_MISSING', 'x'), false).status).toBe(401);
    expect(describeError(new BinderyError('BINDERY_SETTING_INVALID', 'x'), false).status).toBe(500);
  });

  it('a code without a status cannot build an HttpError', () => {
    expect(() => new HttpError('BINDERY_SETTING_INVALID' as HttpErrorCode, 'x')).toThrow(RangeError);
  });

  it('the class factory makes named coded errors of one code', () => {
    const ListenError = codedErrorClass('ListenError', 'BINDERY_LISTEN_FAILED');
    const error = new ListenError('port taken', { cause: 'EADDRINUSE' });
    expect(error).toBeInstanceOf(ListenError);
    expect(error).toBeInstanceOf(CodedError);
    expect([error.name, error.code, error.message, error.cause]).toEqual([
      'ListenError',
      'BINDERY_LISTEN_FAILED',
      'port taken',
      'EADDRINUSE',
    ]);
  });

  it('requireService: the service, or BINDERY_SERVICE_NOT_SET_UP naming the setup call', () => {
    const services = { audit: 'the log' } as unknown as Services;
    expect(requireService(services, 'audit' as keyof Services & string, 'audit()')).toBe('the log');
    let thrown: unknown;
    try {
      requireService({} as Services, 'auth' as keyof Services & string, 'cache(), session() and auth({ users })');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ServiceNotSetUpError);
    expect(thrown).toMatchObject({
      code: 'BINDERY_SERVICE_NOT_SET_UP',
      message: expect.stringContaining('add cache(), session() and auth({ users }) to the setup list'),
    });
    expect(describeError(thrown, false).status).toBe(500);
  });

  it('runtime code never pairs a numeric status with a registered code (the status comes from the registry)', () => {
    const root = new URL('../../../runtime/', import.meta.url).pathname;
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.ts')) {
          const text = readFileSync(path, 'utf8');
          if (/(new HttpError|super)\(\d{3},[^;]*code: 'BINDERY_/s.test(text.replace(/\/\*[\s\S]*?\*\//g, '')))
            offenders.push(path.slice(root.length));
        }
      }
    };
    walk(root);
    expect(offenders).toEqual([]);
  });
});
