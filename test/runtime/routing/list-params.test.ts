/**
 * A list route's query parameters checked before binding
 * (runtime/results/list/list-params.ts), and the sealed cursors
 * (runtime/crypto/cursor-codec.ts): forged or edited cursors never open;
 * cursors outlive a key rotation.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { KeyRing } from '../../../runtime/crypto/key-ring.js';
import { ValidationError } from '../../../runtime/errors/validation-error.js';
import { compileListParamCheck } from '../../../runtime/validation/list-params.js';
import type { RouteDefinition } from '../../../runtime/routing/route-table.js';
import { CursorSealer, decodeCursor, encodeCursor } from '../../../runtime/crypto/cursor-codec.js';

const route = {
  name: 'notes.list',
  method: 'GET',
  path: '/notes',
  group: null,
  middleware: [],
  result: 'ok',
  validate: null,
  output: null,
  origin: 'test',
  fields: [
    { key: 'filter_mode', type: { kind: 'string', array: false, nullable: false }, source: 'query', name: 'filterMode', rules: [] },
    { key: 'filter_title', type: { kind: 'string', array: false, nullable: false }, source: 'query', name: 'filter[title]', rules: [] },
  ],
  list: {
    table: 'notes',
    primaryKey: 'id',
    primaryKeyColumnType: 'bigint',
    softDelete: false,
    sort: [{ name: 'title', column: 'title', columnType: 'string' }],
    filters: [{ key: 'filter_title', param: 'filter[title]', column: 'title', op: 'prefix', columnType: 'string', array: false }],
  },
} satisfies RouteDefinition;

const check = compileListParamCheck(route)!;
const errorsOf = (query: Record<string, unknown>): Record<string, string> | undefined => {
  try {
    check({ query } as unknown as FastifyRequest);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).fieldErrors as Record<string, string>;
  }
};

describe('list parameters', () => {
  it("accepts the list's filters, the route's own query fields and other names", () => {
    expect(errorsOf({ 'filter[title]': 'a', filterMode: 'x', sort: '-title', page: '2' })).toBeUndefined();
    expect(compileListParamCheck({ ...route, list: undefined })).toBeNull();
  });

  it('refuses an unknown filter and an unknown order, listing what there is', () => {
    expect(errorsOf({ 'filter[body]': 'a', sort: 'body' })).toEqual({
      'filter[body]': 'filter[body] is not a filter of this list; the filters are: filter[title].',
      sort: 'sort=body is not an order of this list; sort by one of: title, -title.',
    });
  });
});

describe('cursors', () => {
  const key = () => randomBytes(32);

  it('encodes values as base64url JSON; anything else decodes to undefined', () => {
    expect(decodeCursor(encodeCursor(['a', 1]))).toEqual(['a', 1]);
    expect(decodeCursor('not json')).toBeUndefined();
    expect(decodeCursor(Buffer.from('{"a":1}').toString('base64url'))).toBeUndefined();
  });

  it('opens only what one of the keys sealed, unedited', () => {
    const sealer = new CursorSealer(new KeyRing(key()));
    const cursor = sealer.seal(['notes.list', '-id', 'f', '10', '10']);
    expect(sealer.open(cursor)).toEqual(['notes.list', '-id', 'f', '10', '10']);
    const [body, tag] = cursor.split('.') as [string, string];
    const edited = `${encodeCursor(['notes.list', '-id', 'f', '99', '99'])}.${tag}`;
    for (const bad of [edited, body, `${body}.`, `${body}.${tag}x`, `${body}.${tag.slice(1)}`, '', '.', 'x'.repeat(5000)])
      expect(sealer.open(bad)).toBeUndefined();
    expect(new CursorSealer(new KeyRing(key())).open(cursor)).toBeUndefined();
  });

  it('opens cursors sealed with a previous key after a rotation', () => {
    const old = key();
    const cursor = new CursorSealer(new KeyRing(old)).seal(['x']);
    expect(new CursorSealer(new KeyRing(key(), [old])).open(cursor)).toEqual(['x']);
  });
});
