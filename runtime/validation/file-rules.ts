/**
 * Rules of uploaded files that look at their content (docs/schema-language.md
 * "Validation rules"; docs/storage.md "File rules"): `mimes` (the type
 * detected from the bytes, never the name or the client's `Content-Type`)
 * and `dimensions` (an image's width and height). Size rules (`max:2048`,
 * in kilobytes) are the general `min`/`max`/`between`/`size`.
 *
 * Both are JSON Schema fragments over the bound `UploadedFile` (its `type`
 * and `dimensions`), so ajv checks them and `each:` can wrap them.
 */
import type { RuleSpec } from './rule-spec.js';

/** Extensions `file-type` reports for the names people write (`jpeg` → `jpg`). */
const CANONICAL: Readonly<Record<string, string>> = { jpeg: 'jpg', jpe: 'jpg', tif: 'tiff', htm: 'html', text: 'txt', mpeg: 'mpg' };

/** The keys of `dimensions:` and the bound each sets. */
const DIMENSION_KEYS: Readonly<Record<string, { readonly of: 'width' | 'height'; readonly bound: 'minimum' | 'maximum' | 'const' }>> = {
  min_width: { of: 'width', bound: 'minimum' },
  max_width: { of: 'width', bound: 'maximum' },
  width: { of: 'width', bound: 'const' },
  min_height: { of: 'height', bound: 'minimum' },
  max_height: { of: 'height', bound: 'maximum' },
  height: { of: 'height', bound: 'const' },
};

function mimesSchema(values: readonly (string | number)[]): Record<string, unknown> {
  const exts = new Set<string>();
  const mimes: string[] = [];
  const families: string[] = [];
  for (const raw of values) {
    const v = String(raw).toLowerCase();
    if (v.endsWith('/*')) families.push(v.slice(0, -1));
    else if (v.includes('/')) mimes.push(v);
    else exts.add(CANONICAL[v] ?? v);
  }
  const anyOf: Record<string, unknown>[] = [];
  if (exts.size > 0) anyOf.push({ required: ['ext'], properties: { ext: { enum: [...exts].sort() } } });
  if (mimes.length > 0) anyOf.push({ required: ['mime'], properties: { mime: { enum: mimes } } });
  for (const family of families)
    anyOf.push({
      required: ['mime'],
      properties: { mime: { type: 'string', pattern: `^${family.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}` } },
    });
  return { required: ['type'], properties: { type: { type: 'object', anyOf } } };
}

/** The file rules, merged into the catalog (`RULES`). */
export const FILE_RULES: Readonly<Record<string, RuleSpec>> = {
  mimes: {
    name: 'mimes',
    params: 'list',
    appliesTo: ['file'],
    placeholders: ['values'],
    checkParams: (values) => {
      const bad = values.find((v) => !/^([a-z0-9][a-z0-9.+-]*|[a-z]+\/([a-z0-9][a-z0-9.+-]*|\*))$/i.test(String(v)));
      return bad === undefined
        ? undefined
        : `rule "mimes" takes extensions (png, jpg, pdf) or MIME types (image/png, image/*), got "${bad}"`;
    },
    schema: (_type, values) => mimesSchema(values),
    messages: { '*': 'The :attribute field must be a file of type: :values.' },
  },
  dimensions: {
    name: 'dimensions',
    params: 'list',
    appliesTo: ['file'],
    checkParams: (values) => {
      for (const v of values) {
        const [key, n, extra] = String(v).split('=');
        if (key === undefined || !(key in DIMENSION_KEYS) || extra !== undefined || !/^\d+$/.test(n ?? ''))
          return `rule "dimensions" takes ${Object.keys(DIMENSION_KEYS).join(', ')} with a whole number of pixels (dimensions:min_width=100,max_height=800), got "${v}"`;
      }
      return undefined;
    },
    schema: (_type, values) => {
      const width: Record<string, number> = {};
      const height: Record<string, number> = {};
      for (const v of values) {
        const [key, n] = String(v).split('=') as [string, string];
        const spec = DIMENSION_KEYS[key]!;
        (spec.of === 'width' ? width : height)[spec.bound] = Number(n);
      }
      return {
        required: ['dimensions'],
        properties: { dimensions: { type: 'object', required: ['width', 'height'], properties: { width, height } } },
      };
    },
    messages: { '*': 'The :attribute field has invalid image dimensions.' },
  },
};
