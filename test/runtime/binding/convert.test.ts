import { describe, expect, it } from 'vitest';
import { ABSENT, INVALID, conversionMessage, fromJson, fromText } from '../../../runtime/binding/convert.js';
import { parseTimestamp } from '../../../runtime/binding/timestamp.js';
import { defaultMaker } from '../../../runtime/binding/field-defaults.js';
import { attributeName, clientName } from '../../../runtime/binding/client-names.js';
import { field } from '../http/support/routes.js';

describe('fromText | text values of query, form, header and path', () => {
  it.each([
    ['integer', '42', 42],
    ['integer', '-7', -7],
    ['integer', '+3', 3],
    ['integer', '007', 7],
    ['integer', '1.5', INVALID],
    ['integer', '1e3', INVALID],
    ['integer', ' 1', INVALID],
    ['integer', '9007199254740992', INVALID],
    ['number', '1.5', 1.5],
    ['number', '-.5', -0.5],
    ['number', '2e3', 2000],
    ['number', 'Infinity', INVALID],
    ['number', '0x10', INVALID],
    ['number', '1e999', INVALID],
    ['boolean', 'TRUE', true],
    ['boolean', 'On', true],
    ['boolean', 'yes', true],
    ['boolean', '1', true],
    ['boolean', 'false', false],
    ['boolean', 'OFF', false],
    ['boolean', 'No', false],
    ['boolean', '0', false],
    ['boolean', 'y', INVALID],
    ['duration', '90s', 90_000],
    ['duration', 'PT1M', 60_000],
    ['duration', '1500', INVALID],
    ['string', '', ''],
    ['string', ' x ', ' x '],
    ['json', '{"a":1}', '{"a":1}'],
    ['integer', '', ABSENT],
    ['boolean', '', ABSENT],
    ['timestamp', '', ABSENT],
    ['duration', '', ABSENT],
    ['file', 'x', INVALID],
  ] as const)('%s %j → %j', (kind, text, expected) => {
    expect(fromText(kind, text)).toBe(expected);
  });

  it('timestamps become Dates', () => {
    expect((fromText('timestamp', '2024-05-01T12:00:00Z') as Date).toISOString()).toBe('2024-05-01T12:00:00.000Z');
  });
});

describe('fromJson | JSON values are strict about types', () => {
  it.each([
    ['string', 'x', 'x'],
    ['string', 5, INVALID],
    ['integer', 5, 5],
    ['integer', 5.5, INVALID],
    ['integer', '5', INVALID],
    ['number', 5.5, 5.5],
    ['number', '5.5', INVALID],
    ['boolean', true, true],
    ['boolean', 'true', INVALID],
    ['boolean', 1, INVALID],
    ['duration', 1500, 1500],
    ['duration', '2m', 120_000],
    ['duration', 'soon', INVALID],
    ['duration', true, INVALID],
    ['timestamp', 1700000000000, INVALID],
    ['file', {}, INVALID],
  ] as const)('%s %j → %j', (kind, value, expected) => {
    expect(fromJson(kind, value)).toBe(expected);
  });

  it('json takes any value', () => {
    const value = { a: [1] };
    expect(fromJson('json', value)).toBe(value);
  });
});

describe('parseTimestamp | strict RFC 3339', () => {
  it.each([
    ['2024-05-01T12:00:00Z', '2024-05-01T12:00:00.000Z'],
    ['2024-05-01t12:00:00z', '2024-05-01T12:00:00.000Z'],
    ['2024-05-01T12:00:00.123456789+01:30', '2024-05-01T10:30:00.123Z'],
    ['2024-02-29T00:00:00-00:00', '2024-02-29T00:00:00.000Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
  ])('%s', (text, iso) => {
    expect(parseTimestamp(text)?.toISOString()).toBe(iso);
  });

  it.each([
    '2023-02-29T00:00:00Z',
    '2024-04-31T00:00:00Z',
    '2024-05-01T12:00Z',
    '2024-05-01T12:00:60Z',
    '2024-05-01 12:00:00Z',
    '2024-05-01T12:00:00+24:00',
    '20240501T120000Z',
    '2024-05-01T12:00:00.Z',
  ])('refuses %s', (text) => {
    expect(parseTimestamp(text)).toBeUndefined();
  });
});

describe('defaultMaker | defaults of absent fields', () => {
  it('gives fresh copies of lists, Dates and objects', () => {
    const list = defaultMaker(field('tags', 'string[]', { json: 'tags' }, [], ['a']))!;
    const a = list() as string[];
    a.push('mutated');
    expect(list()).toEqual(['a']);
    const when = defaultMaker(field('at', 'timestamp', { json: 'at' }, [], '2024-01-01T00:00:00Z'))!;
    expect(when()).toEqual(new Date('2024-01-01T00:00:00Z'));
    expect(when()).not.toBe(when());
    expect(defaultMaker(field('n', 'integer', { query: 'n' }))).toBeUndefined();
  });

  it('refuses a default that does not fit the type', () => {
    expect(() => defaultMaker(field('n', 'integer', { query: 'n' }, [], 1.5))).toThrow('the default 1.5 is not a safe integer');
    expect(() => defaultMaker(field('at', 'timestamp', { json: 'at' }, [], 'yesterday'))).toThrow(
      'the default "yesterday" is not an RFC 3339 date-time',
    );
  });
});

describe('Client names | errors keys and :attribute', () => {
  it('uses the form name for forms, the JSON name otherwise, the source name for the rest', () => {
    const body = field('display_name', 'string', { json: 'displayName', form: 'display_name' });
    expect(clientName(body, 'json')).toBe('displayName');
    expect(clientName(body, 'form')).toBe('display_name');
    expect(clientName(body, 'none')).toBe('displayName');
    expect(clientName(field('limit', 'integer', { query: 'max' }), 'json')).toBe('max');
    expect(attributeName('display_name')).toBe('display name');
    expect(attributeName('tags', 2)).toBe('tags.2');
    expect(conversionMessage('integer', 'limit')).toBe('The limit field must be an integer.');
    expect(conversionMessage('string', 'tags', true)).toBe('The tags field must be a list.');
  });
});
