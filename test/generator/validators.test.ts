/**
 * The generated ajv standalone validators (golden fixture `full`): they accept
 * valid input and reject each rule with an error whose `schemaPath` names the
 * field and the rule's index (`#/properties/<key>/allOf/<i>/…`), or the field
 * in `required`.
 */
import { describe, expect, it } from 'vitest';
import type { CompiledValidator } from '../../runtime/routing/route-table.js';
import * as validators from './fixtures/full/expected/validators.js';

/** `key#ruleIndex` (or `key#required`) of every error, deduplicated, in order. */
function failures(validate: CompiledValidator, input: Record<string, unknown>): string[] {
  if (validate(input)) return [];
  const out = (validate.errors ?? []).map((e) => {
    if (e.schemaPath === '#/required') return `${String(e.params['missingProperty'])}#required`;
    const m = /^#\/properties\/([^/]+)\/allOf\/(\d+)\//.exec(e.schemaPath);
    return m ? `${m[1]}#${m[2]}` : e.schemaPath;
  });
  return [...new Set(out)];
}

const DOCUMENT = { slug: 'my-doc', title: 'A title', status: 'draft', ttl: 1000 };

describe('validators | generated ajv standalone code', () => {
  it('exports one typed validator per route with rules, named after the route', () => {
    expect(Object.keys(validators).sort()).toEqual([
      'accountMe',
      'accountRegister',
      'articlesFeed',
      'articlesIndex',
      'conduitRegister',
      'documentsCreate',
      'documentsList',
      'documentsPages',
      'documentsUpload',
      'tokensRevoke',
    ]);
  });

  it('accepts valid input', () => {
    expect(
      failures(validators.documentsCreate, {
        ...DOCUMENT,
        tags: ['a1', 'b2'],
        notes: 'fine',
        rating: 4.5,
        homepage: 'https://example.com/x',
        code: 'abcdex',
        code_check: 'other',
        alias: 'docs',
        owner: 3,
        meta: { any: ['thing'] },
      }),
    ).toEqual([]);
    expect(failures(validators.accountRegister, { name: 'Ann', email: 'ann@example.com', password: 'secret12', terms: true })).toEqual([]);
  });

  it('rejects each rule with the field and the rule index; a field stops at its first failing rule', () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [{ title: 'x', status: 'draft', ttl: 1 }, ['slug#required']],
      [{ ...DOCUMENT, slug: '   ' }, ['slug#0']],
      [{ ...DOCUMENT, slug: 'x'.repeat(101) }, ['slug#1']],
      [{ ...DOCUMENT, slug: 'not a slug' }, ['slug#2']],
      [{ ...DOCUMENT, title: 'x'.repeat(256) }, ['title#1']],
      [{ ...DOCUMENT, status: 'gone' }, ['status#0']],
      [{ ...DOCUMENT, tags: [] }, ['tags#0']],
      [{ ...DOCUMENT, tags: ['a', 'b', 'c', 'd', 'e', 'f'] }, ['tags#1']],
      [{ ...DOCUMENT, tags: ['a', 'a'] }, ['tags#2']],
      [{ ...DOCUMENT, tags: ['ok', 'no way'] }, ['tags#3']],
      [{ ...DOCUMENT, notes: 'spam' }, ['notes#0']],
      [{ ...DOCUMENT, notes: '<b>' }, ['notes#1']],
      [{ ...DOCUMENT, rating: 6 }, ['rating#0']],
      [{ ...DOCUMENT, homepage: 'ftp://example.com' }, ['homepage#0']],
      [{ ...DOCUMENT, code: 'abcdez' }, ['code#2']],
      [{ ...DOCUMENT, code: 'abc1x' }, ['code#0']],
      [{ ...DOCUMENT, alias: 'doc-1' }, ['alias#1']],
      [{ ...DOCUMENT, alias: 'note' }, ['alias#2']],
      [{ ...DOCUMENT, ttl: 86_400_001 }, ['ttl#0']],
      [{ ...DOCUMENT, owner: 0 }, ['owner#0']],
    ];
    for (const [input, expected] of cases)
      expect({ input, errors: failures(validators.documentsCreate, input) }).toEqual({ input, errors: expected });
  });

  it('lets null through the rules of a nullable field', () => {
    expect(failures(validators.documentsCreate, { ...DOCUMENT, notes: null, rating: null })).toEqual([]);
  });

  it('leaves cross-field rules to the runtime, keeping rule indexes aligned', () => {
    // `same:code` (code_check rule 0) and `different:slug` (alias rule 0) have no fragment; `confirmed` neither.
    expect(failures(validators.documentsCreate, { ...DOCUMENT, code_check: 'whatever', alias: 'my' })).toEqual(['alias#2']);
    expect(failures(validators.accountRegister, { name: 'Ann', email: 'ann@example.com', password: 'short', terms: false })).toEqual([
      'password#1',
      'terms#0',
    ]);
    expect(failures(validators.accountRegister, { email: 'not-an-email' })).toEqual(['name#required', 'password#required', 'email#1']);
  });

  it('checks list items, query lists, headers, path values and file sizes', () => {
    expect(failures(validators.documentsList, { status: ['draft', 'deleted'], limit: 0 })).toEqual(['status#0', 'limit#0']);
    expect(failures(validators.accountMe, { authorization: 'Basic abc' })).toEqual(['authorization#1']);
    expect(failures(validators.tokensRevoke, { token: 'nope' })).toEqual(['token#0']);
    const file = (kb: number) => ({
      filename: 'a.pdf',
      mimetype: 'application/pdf',
      encoding: '7bit',
      size: kb * 1024,
      type: { mime: 'application/pdf', ext: 'pdf' },
      dimensions: { width: 100, height: 100 },
      data: Buffer.alloc(0),
    });
    expect(failures(validators.documentsUpload, { id: 1, file: file(10), attachments: [file(1)] })).toEqual([]);
    expect(failures(validators.documentsUpload, { id: 1, file: file(2049), attachments: [file(1), file(1025)] })).toEqual([
      'file#1',
      'attachments#1',
    ]);
  });

  it('checks nested fields under the object\'s own properties (docs/schema-language.md "Nested input")', () => {
    const validate = validators.conduitRegister;
    expect(validate({})).toBe(false);
    expect(validate.errors!.map((e) => [e.schemaPath, e.params['missingProperty']])).toEqual([['#/required', 'user']]);
    expect(
      validate({ user: { email: 'x', username: 'a', password_confirmation: 'p', prefs: { theme: 'light', tags: ['ok', 'not ok'] } } }),
    ).toBe(false);
    const paths = validate.errors!.map((e) => e.schemaPath);
    expect(paths).toContain('#/properties/user/required');
    expect(paths.some((p) => p.startsWith('#/properties/user/properties/email/allOf/1/'))).toBe(true);
    expect(paths.some((p) => p.startsWith('#/properties/user/properties/prefs/properties/tags/allOf/1/'))).toBe(true);
    expect(
      validate({ user: { email: 'ada@example.com', username: 'ada', password: 'long enough', password_confirmation: 'x', prefs: null } }),
    ).toBe(true);
  });
});
