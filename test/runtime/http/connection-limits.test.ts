/**
 * The connection deadlines derived from the server options (docs/http.md
 * "Deadlines and malformed requests").
 */
import { describe, expect, it } from 'vitest';
import { connectionLimits } from '../../../runtime/http/server.js';

describe('connectionLimits | defaults, bounds and the check interval', () => {
  it('defaults: body = request timeout, headers 10 s, keep-alive 5 s, checked every second at most', () => {
    expect(connectionLimits({ requestTimeoutMs: 30_000 })).toEqual({
      bodyTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 5_000,
      checkIntervalMs: 1000,
    });
  });

  it('the headers timeout never exceeds the body timeout; the check runs every tenth of the shortest (at least 50 ms)', () => {
    expect(connectionLimits({ requestTimeoutMs: 30_000, bodyTimeoutMs: 2000 })).toMatchObject({
      bodyTimeoutMs: 2000,
      headersTimeoutMs: 2000,
      checkIntervalMs: 200,
    });
    expect(connectionLimits({ requestTimeoutMs: 30_000, bodyTimeoutMs: 100, headersTimeoutMs: 100 })).toMatchObject({
      checkIntervalMs: 50,
    });
  });

  it('without a request timeout the body deadline is 30 s', () => {
    expect(connectionLimits({ requestTimeoutMs: 0 }).bodyTimeoutMs).toBe(30_000);
  });

  it('refuses a deadline that is not a positive number of milliseconds', () => {
    expect(() => connectionLimits({ requestTimeoutMs: 30_000, headersTimeoutMs: 0 })).toThrow(RangeError);
    expect(() => connectionLimits({ requestTimeoutMs: 30_000, keepAliveTimeoutMs: Number.NaN })).toThrow(/keepAliveTimeoutMs/);
  });
});
