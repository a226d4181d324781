/**
 * Which cursor texts read back as a column type (docs/database.md "Lists and
 * cursors"): the neutral text every engine writes, the PostgreSQL JSON text
 * of cursors made before, and nothing a statement would fail on.
 */
import { describe, expect, it } from 'vitest';
import { neutralSortKey, readableSortKey } from '../../../runtime/results/list/sort-key-text.js';

describe('readableSortKey', () => {
  it('reads instants in the neutral form and in the form of cursors made before (an offset, fewer fraction digits)', () => {
    for (const text of [
      '2026-11-24T00:04:03.123456Z',
      '2026-11-24T00:04:03Z',
      '2026-11-24T00:04:03.123456+00:00',
      '2026-11-24T05:34:03.1+05:30',
      '2026-11-23T20:34:03.12-03:30',
      '2024-02-29T00:00:00Z',
      '0044-03-15T12:00:00Z',
      'infinity',
      '-infinity',
    ])
      expect(readableSortKey(text, 'timestamp'), text).toBe(true);
    for (const text of [
      'yesterday',
      'now',
      '2026-02-29T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01T00:60:00Z',
      '2026-01-01 00:00:00Z',
      '2026-01-01T00:00:00.1234567Z',
      '2026-01-01T00:00:00+16:00',
      '',
    ])
      expect(readableSortKey(text, 'timestamp'), text).toBe(false);
  });

  it('reads integers within their range, numbers, booleans and UUIDs; any text for strings', () => {
    expect(readableSortKey('-2147483648', 'integer')).toBe(true);
    expect(readableSortKey('2147483648', 'integer')).toBe(false);
    expect(readableSortKey('9223372036854775807', 'bigint')).toBe(true);
    expect(readableSortKey('9223372036854775808', 'bigint')).toBe(false);
    expect(readableSortKey('1.5', 'bigint')).toBe(false);
    expect(readableSortKey('twelve', 'bigint')).toBe(false);
    expect(readableSortKey('-1.5e-7', 'float')).toBe(true);
    expect(readableSortKey('NaN', 'float')).toBe(true);
    expect(readableSortKey('1,5', 'float')).toBe(false);
    expect(readableSortKey('true', 'boolean')).toBe(true);
    expect(readableSortKey('yes', 'boolean')).toBe(false);
    expect(readableSortKey('0b9f2c1e-7d4a-4c3b-9a51-2f6e8d1c0a7b', 'uuid')).toBe(true);
    expect(readableSortKey('0b9f2c1e7d4a4c3b9a512f6e8d1c0a7b', 'uuid')).toBe(false);
    for (const type of ['string', 'string(5)', 'text']) expect(readableSortKey("any ' text, longer than 5", type)).toBe(true);
  });
});

describe('neutralSortKey', () => {
  it('gives an instant with an offset as its UTC text ending in Z, the fraction as written; other texts and types unchanged', () => {
    expect(neutralSortKey('2026-11-24T05:34:03.1+05:30', 'timestamp')).toBe('2026-11-24T00:04:03.1Z');
    expect(neutralSortKey('2026-11-23T20:34:03.123456-03:30', 'timestamp')).toBe('2026-11-24T00:04:03.123456Z');
    expect(neutralSortKey('2026-01-01T00:30:00+01:00', 'timestamp')).toBe('2025-12-31T23:30:00Z');
    expect(neutralSortKey('2026-11-24T00:04:03.123456+00:00', 'timestamp')).toBe('2026-11-24T00:04:03.123456Z');
    expect(neutralSortKey('2026-11-24T00:04:03.123456Z', 'timestamp')).toBe('2026-11-24T00:04:03.123456Z');
    expect(neutralSortKey('infinity', 'timestamp')).toBe('infinity');
    expect(neutralSortKey('2026-11-24T05:34:03+05:30', 'string')).toBe('2026-11-24T05:34:03+05:30');
  });
});
