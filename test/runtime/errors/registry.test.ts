/**
 * The error code registry (runtime/errors/codes.ts) against docs/errors.md,
 * in both directions (docs/errors.md).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docsOf, ERROR_CODES, errorMessage, statusOf, type ErrorCodeSpec, type HttpErrorCode } from '../../../runtime/errors/codes.js';
import { BinderyError } from '../../../runtime/errors/bindery-error.js';
import { CodedError, codedError, codedErrorClass } from '../../../runtime/errors/coded-error.js';
import { formatCliError } from '../../../runtime/app/format-error.js';
import { SeedFailedError } from '../../../runtime/db/seeds.js';
import { UnsafeIntegerError } from '../../../runtime/db/errors.js';
import { MigrationFailedError } from '../../../runtime/db/migrator/errors.js';
import { describeError } from '../../../runtime/errors/error-info.js';
import { HttpError } from '../../../runtime/errors/http-error.js';
import { requireService, ServiceNotSetUpError } from '../../../runtime/http/require-service.js';
import type { Services } from '../../../runtime/http/context.js';
import { ACCOUNT_CODES } from '../../../runtime/errors/codes/accounts.js';
import { DATA_CODES } from '../../../runtime/errors/codes/data.js';
import { HTTP_CODES } from '../../../runtime/errors/codes/http.js';
import { TOOLING_CODES } from '../../../runtime/errors/codes/tooling.js';

interface Row {
  code: string;
  /** The `<a id="…">` anchor in the code cell, or '' when the row has none. */
  anchor: string;
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
    const cell = /^(?:<a id="([^"]*)"><\/a>)?(BINDERY_[A-Z0-9_]+)$/.exec(cells[0] ?? '');
    if (cells.length !== 4 || cell === null) continue;
    rows.push({ code: cell[2]!, anchor: cell[1] ?? '', status: cells[1]!, cause: cells[2]!, fix: cells[3]! });
  }
  return rows;
}

const codes = ERROR_CODES as Record<string, ErrorCodeSpec>;
const rows = documentedRows();

describe('Error registry | codes.ts and docs/errors.md agree', () => {
  it('no code is in two areas (the registry merges them: a second would replace the first)', () => {
    const areas = [HTTP_CODES, DATA_CODES, ACCOUNT_CODES, TOOLING_CODES].map((area) => Object.keys(area));
    expect(areas.flat().length).toBe(Object.keys(ERROR_CODES).length);
  });

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

  it("every code's docs anchor exists in docs/errors.md, on the code's own row", () => {
    const anchors = new Map(rows.map((r) => [r.code, r.anchor]));
    for (const code of Object.keys(codes)) {
      const [page, anchor] = docsOf(code).split('#');
      expect(page, code).toBe('docs/errors.md');
      expect(anchors.get(code), code).toBe(anchor);
    }
  });

  it('templates have only named placeholders', () => {
    const templated = Object.entries(codes).filter(([, spec]) => spec.message !== undefined);
    expect(templated.length).toBeGreaterThan(0);
    for (const [code, spec] of templated) {
      expect(spec.message!.replace(/\{[A-Za-z_][A-Za-z0-9_]*\}/g, ''), code).not.toMatch(/[{}]/);
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

  it("an HttpError of a registered code names its docs anchor; the app's own codes have none", () => {
    expect(new HttpError('BINDERY_NOT_FOUND', 'x').docs).toBe('docs/errors.md#bindery_not_found');
    expect(new HttpError(409, 'x', { code: 'NOTES_DUPLICATE' }).docs).toBeUndefined();
    expect(new HttpError(409, 'x').docs).toBeUndefined();
  });

  it('a BinderyError names its docs anchor, and the CLI prints it after the code', () => {
    const error = new BinderyError('BINDERY_LISTEN_FAILED', 'port taken');
    expect(error.docs).toBe('docs/errors.md#bindery_listen_failed');
    expect(formatCliError(error, false)).toBe(
      'Error: port taken\n(BINDERY_LISTEN_FAILED; docs/errors.md#bindery_listen_failed says what to do)\n',
    );
  });

  it('codedError fills the template of its code; a missing value or a code without template is a RangeError', () => {
    const cause = new Error('boom');
    const error = codedError('BINDERY_SEED_FAILED', { file: 'app/seeds/01_users.ts', reason: 'it threw (boom)' }, { cause });
    expect(error).toBeInstanceOf(BinderyError);
    expect([error.code, error.message, error.cause, error.docs]).toEqual([
      'BINDERY_SEED_FAILED',
      'Seed app/seeds/01_users.ts failed: it threw (boom). The transaction was rolled back: no seed of this run wrote anything.',
      cause,
      'docs/errors.md#bindery_seed_failed',
    ]);
    expect(new SeedFailedError('app/seeds/01_users.ts', 'it threw (boom)').message).toBe(error.message);
    // @ts-expect-error the template needs {reason}
    expect(() => errorMessage('BINDERY_SEED_FAILED', { file: 'x' })).toThrow(/needs a value for \{reason\}/);
    // @ts-expect-error BINDERY_LISTEN_FAILED has no template
    expect(() => errorMessage('BINDERY_LISTEN_FAILED', {})).toThrow(RangeError);
  });

  it('a class made by codedErrorClass builds templated instances with from(params)', () => {
    const SeedError = codedErrorClass('SeedError', 'BINDERY_SEED_FAILED');
    const error = SeedError.from({ file: 'a.ts', reason: 'r' }, { cause: 'c' });
    expect(error).toBeInstanceOf(SeedError);
    expect([error.name, error.message, error.cause]).toEqual([
      'SeedError',
      'Seed a.ts failed: r. The transaction was rolled back: no seed of this run wrote anything.',
      'c',
    ]);
    const Listen = codedErrorClass('Listen', 'BINDERY_LISTEN_FAILED');
    // @ts-expect-error the template needs {reason} too
    expect(() => Listen.from({ address: '127.0.0.1:80' })).toThrow(RangeError);
    const Untemplated = codedErrorClass('Untemplated', 'BINDERY_APP_INVALID');
    // @ts-expect-error a code without a template has no from(params)
    expect(() => Untemplated.from({})).toThrow(/has no message template/);
  });

  it('the converted throw sites build their messages from the templates', () => {
    expect(new UnsafeIntegerError('9007199254740993').message).toBe(errorMessage('BINDERY_INTEGER_UNSAFE', { value: '9007199254740993' }));
    const failed = new MigrationFailedError('app/0002_tags.sql', 3, 'syntax error');
    expect(failed.message).toMatch(/^Migration app\/0002_tags\.sql \(line 3\) failed: syntax error\. Its transaction was rolled back/);
    expect(new MigrationFailedError('app/0002_tags.sql', undefined, 'x').message).toMatch(/^Migration app\/0002_tags\.sql failed: x\./);
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
