import { describe, expect, it } from 'vitest';
import { describeError, HIDDEN_DETAIL } from '../../../runtime/errors/error-info.js';
import { HttpError } from '../../../runtime/errors/http-error.js';
import { NotFoundError } from '../../../runtime/errors/not-found-error.js';
import { ValidationError } from '../../../runtime/errors/validation-error.js';
import { problemDetails } from '../../../runtime/errors/problem-details.js';
import { redactHeaders, redactUrl } from '../../../runtime/errors/redact.js';
import { errorChain } from '../../../runtime/errors/debug-page.js';
import { errorPageHtml } from '../../../runtime/errors/html-page.js';

describe('describeError | status, detail and field errors of anything thrown', () => {
  it('HttpError keeps its status and shows its message, even 5xx', () => {
    expect(describeError(new HttpError(409, 'Taken.'), false)).toMatchObject({ status: 409, detail: 'Taken.', code: 'BINDERY_HTTP_ERROR' });
    expect(describeError(new HttpError(503, 'Down for maintenance.', { code: 'APP_MAINTENANCE' }), false)).toMatchObject({
      status: 503,
      detail: 'Down for maintenance.',
      code: 'APP_MAINTENANCE',
    });
    expect(describeError(new HttpError(500, 'internal', { expose: false }), false).detail).toBe(HIDDEN_DETAIL);
  });

  it('any error with a status or statusCode of 400–599 keeps it; 5xx messages hidden unless debug', () => {
    expect(describeError(Object.assign(new Error('Too many.'), { statusCode: 429 }), false)).toMatchObject({
      status: 429,
      detail: 'Too many.',
    });
    expect(describeError(Object.assign(new Error('db host x'), { status: 502 }), false)).toMatchObject({
      status: 502,
      detail: HIDDEN_DETAIL,
    });
    expect(describeError(Object.assign(new Error('db host x'), { status: 502 }), true)).toMatchObject({ status: 502, detail: 'db host x' });
    expect(describeError(Object.assign(new Error('odd'), { status: 302 }), false).status).toBe(500);
    expect(describeError(Object.assign(new Error('secret'), { statusCode: 400, expose: false }), false).detail).toBe('Bad Request');
  });

  it('fieldErrors fill errors; without a status they mean 422', () => {
    expect(describeError(new ValidationError({ a: 'bad' }), false)).toMatchObject({
      status: 422,
      detail: 'The given data was invalid.',
      fieldErrors: { a: 'bad' },
    });
    expect(describeError(Object.assign(new Error('x'), { fieldErrors: { b: 'worse' } }), false)).toMatchObject({
      status: 422,
      fieldErrors: { b: 'worse' },
    });
  });

  it('everything else is 500, message hidden; non-Error throws are wrapped', () => {
    expect(describeError(new Error('boom'), false)).toMatchObject({ status: 500, detail: HIDDEN_DETAIL, code: 'BINDERY_INTERNAL_ERROR' });
    const info = describeError(42, true);
    expect(info.error).toBeInstanceOf(Error);
    expect(info.detail).toBe('A non-error value was thrown: 42');
    expect(new NotFoundError().status).toBe(404);
    expect(() => new HttpError(200, 'no')).toThrow(RangeError);
  });
});

describe('Problem details and pages', () => {
  it('has the docs/spec.md 2.8 members in order', () => {
    expect(JSON.stringify(problemDetails(422, 'The given data was invalid.', 'r1', { title: 'x' }))).toBe(
      '{"type":"about:blank","title":"Unprocessable Content","status":422,"detail":"The given data was invalid.","errors":{"title":"x"},"request_id":"r1"}',
    );
    expect(JSON.stringify(problemDetails(404, 'No.', 'r2'))).toBe(
      '{"type":"about:blank","title":"Not Found","status":404,"detail":"No.","request_id":"r2"}',
    );
  });

  it('escapes the page', () => {
    const html = errorPageHtml({ status: 422, detail: '<b>', requestId: '"id"', errors: { '<f>': '&' } });
    expect(html).toContain('<p>&lt;b&gt;</p>');
    expect(html).toContain('<li><strong>&lt;f&gt;</strong>: &amp;</li>');
    expect(html).toContain('<code>&quot;id&quot;</code>');
  });
});

describe('Redaction | debug page request details', () => {
  it('redacts credentials in headers and secret-looking query values', () => {
    expect(
      redactHeaders({
        authorization: 'Bearer x',
        Cookie: 'a=b',
        'set-cookie': ['s=1'],
        'x-csrf-token': 't',
        'proxy-authorization': 'p',
        host: 'h',
      }),
    ).toEqual([
      ['Cookie', '[redacted]'],
      ['authorization', '[redacted]'],
      ['host', 'h'],
      ['proxy-authorization', '[redacted]'],
      ['set-cookie', '[redacted]'],
      ['x-csrf-token', '[redacted]'],
    ]);
    expect(redactUrl('/p?token=abc&password=pw&api_key=k&page=2&flag')).toBe(
      '/p?token=[redacted]&password=[redacted]&api_key=[redacted]&page=2&flag',
    );
    expect(redactUrl('/plain')).toBe('/plain');
  });

  it('follows causes and stops at cycles', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    expect(errorChain(b).map((e) => (e as Error).message)).toEqual(['b', 'a']);
  });
});
