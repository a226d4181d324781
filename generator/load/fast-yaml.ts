/**
 * A fast first reading of a schema file's data, about ten times faster than
 * building the `yaml` document (the larger part of loading a big schema).
 *
 * js-yaml reads the text with the scalars of the YAML 1.2 core schema
 * resolved exactly as `yaml` resolves them (the same patterns, the same
 * numbers), so for the plain YAML schema files are written in, the data is
 * the same as `parseDocument(text).toJS()`. Whenever the text uses a
 * feature where the two libraries could disagree — tags, anchors and
 * aliases, explicit `?` keys, `<<`, directives, a key that `yaml` reads as
 * null — or js-yaml finds any error, the answer is "unknown" and the caller
 * parses with `yaml`, which stays the authority for every diagnostic and
 * every position (docs/generator.md "Loading the schema").
 */
import jsyaml from 'js-yaml';

/**
 * One implicit scalar type: the first of `forms` whose pattern matches
 * builds the value (js-yaml keeps one type per tag, so the forms of a tag
 * share it).
 */
const scalar = (tag: string, forms: readonly (readonly [RegExp, (text: string) => unknown])[]): jsyaml.Type =>
  new jsyaml.Type(`tag:yaml.org,2002:${tag}`, {
    kind: 'scalar',
    resolve: (text: string | null) => text !== null && forms.some(([test]) => test.test(text)),
    construct: (text: string) => forms.find(([test]) => test.test(text))![1](text),
  });

/** The YAML 1.2 core schema as the `yaml` package resolves it (its `schema/core/*.js`, in its order). */
const CORE = jsyaml.FAILSAFE_SCHEMA.extend({
  implicit: [
    scalar('null', [[/^(?:~|[Nn]ull|NULL)?$/, () => null]]),
    scalar('bool', [[/^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/, (s) => s[0] === 't' || s[0] === 'T']]),
    scalar('int', [
      [/^0o[0-7]+$/, (s) => parseInt(s.substring(2), 8)],
      [/^[-+]?[0-9]+$/, (s) => parseInt(s, 10)],
      [/^0x[0-9a-fA-F]+$/, (s) => parseInt(s.substring(2), 16)],
    ]),
    scalar('float', [
      [
        /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
        (s) => (s.slice(-3).toLowerCase() === 'nan' ? NaN : s[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY),
      ],
      [/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/, (s) => parseFloat(s)],
      [/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/, (s) => parseFloat(s)],
    ]),
  ],
});

/** Tags (`!`), anchors (`&`), aliases (`*`) and explicit keys (`?`) where a node starts; `<<`; directives. */
const UNUSUAL = /(?:^|[\s[{,])[!&*]|(?:^|\s)\?(?:\s|$)|<<|^%/m;
/** Keys `yaml` reads as null (and turns into ""), which js-yaml keeps as written; `__proto__`, which each library guards in its own way. */
const UNSURE_KEYS = new Set(['', '~', 'null', 'Null', 'NULL', '__proto__']);

/**
 * The data of `text` when it is plain YAML that js-yaml reads exactly as
 * `yaml` does; `undefined` when unsure or on any error (parse with `yaml`
 * then). An empty document gives `null`, as `yaml` does. Never throws.
 */
export function fastYamlData(text: string): unknown {
  if (UNUSUAL.test(text)) return undefined;
  let data: unknown;
  try {
    data = jsyaml.load(text, { schema: CORE });
  } catch {
    return undefined;
  }
  if (data === undefined) return null;
  return hasUnsureKey(data) ? undefined : data;
}

function hasUnsureKey(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasUnsureKey);
  if (value === null || typeof value !== 'object') return false;
  for (const [key, item] of Object.entries(value)) if (UNSURE_KEYS.has(key) || hasUnsureKey(item)) return true;
  return false;
}
