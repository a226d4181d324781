/**
 * The English catalogs word everything exactly as the code did before
 * catalogs existed (docs/i18n.md "Catalogs"): every rule message for every
 * kind of value, and every status title.
 */
import { describe, expect, it } from 'vitest';
import { statusPhrase } from '../../../runtime/errors/status.js';
import { FRAMEWORK_LANG_DIR, I18n, loadCatalogs } from '../../../runtime/i18n/index.js';
import { wordMessage } from '../../../runtime/http/request-i18n.js';
import type { FieldTypePlan, RuleRef } from '../../../runtime/routing/route-table.js';
import { RULES, ruleMessage } from '../../../runtime/validation/rules.js';
import { ruleMessageRef } from '../../../runtime/validation/rule-message-ref.js';

const catalogs = loadCatalogs([{ dir: FRAMEWORK_LANG_DIR, owner: 'bindery' }]);
const i18n = new I18n({ catalogs, locales: ['en', 'de'], defaultLocale: 'en', fallbackLocale: 'en' });

const TYPES: FieldTypePlan[] = [
  { kind: 'string', array: false, nullable: false },
  { kind: 'integer', array: false, nullable: false },
  { kind: 'string', array: true, nullable: false },
  { kind: 'file', array: false, nullable: false },
  { kind: 'boolean', array: false, nullable: false },
];

const PARAMS: Record<string, (string | number)[]> = {
  none: [],
  number: [2048],
  number2: [3, 1200],
  list: ['draft', 'published'],
  regex: ['^a+$'],
  field: ['other_field'],
};

describe('the English catalogs', () => {
  it('word every rule for every kind of value as ruleMessage does', () => {
    let checked = 0;
    for (const spec of Object.values(RULES)) {
      if (spec.name === 'each') continue;
      for (const type of TYPES) {
        const rule: RuleRef = { name: spec.name, params: PARAMS[spec.params]! };
        const message = ruleMessageRef(rule, type, 'created at', undefined);
        expect(wordMessage(i18n, 'en', message), `${spec.name} on ${type.kind}${type.array ? '[]' : ''}`).toBe(
          ruleMessage(rule, type, 'created at'),
        );
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('title every status as statusPhrase does', () => {
    for (const [key, text] of catalogs.get('en')!)
      if (key.startsWith('http.status.')) expect(text).toBe(statusPhrase(Number(key.slice(12))));
  });
});

describe('every catalog text', () => {
  it("is valid ICU MessageFormat (bindery's, the reference app's, the mail provider plugin's)", async () => {
    const { IntlMessageFormat } = await import('intl-messageformat');
    const { fileURLToPath } = await import('node:url');
    const { projectCatalogSources } = await import('../../../runtime/i18n/index.js');
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const all = loadCatalogs(projectCatalogSources(root, [{ name: 'mailprovider', dir: `${root}plugins/mailprovider` }]));
    expect([...all.keys()].sort()).toEqual(['de', 'en']);
    for (const [locale, texts] of all)
      for (const [key, text] of texts)
        expect(() => new IntlMessageFormat(text, locale, undefined, { ignoreTag: true }), `${locale} ${key}`).not.toThrow();
    // de is complete; it also names the input fields (attributes.*), which English leaves as the client's names.
    const de = all.get('de')!;
    expect([...all.get('en')!.keys()].filter((k) => !de.has(k))).toEqual([]);
    expect([...de.keys()].filter((k) => !all.get('en')!.has(k)).every((k) => k.startsWith('attributes.'))).toBe(true);
  });
});
