/**
 * The message keys the schema names (`messages:` of an input field's rules;
 * docs/i18n.md "Checks"): each must be in a catalog, or `generate` refuses
 * the schema with the key's position.
 */
import type { InputField } from './model.js';
import type { DeclaredRoute } from './routes.js';

/**
 * Report every `messages:` key of the routes' input fields (nested ones too)
 * that `known` lacks. Nothing when `known` is undefined (no catalogs read).
 */
export function checkMessageKeys(declared: readonly DeclaredRoute[], known: ReadonlySet<string> | undefined): void {
  if (known === undefined) return;
  for (const { route, r } of declared) {
    const walk = (fields: readonly InputField[], path: readonly (string | number)[]): void => {
      for (const field of fields) {
        const at = [...path, field.key];
        for (const [rule, key] of Object.entries(field.messages ?? {})) {
          if (!known.has(key))
            r.error(
              [...at, 'messages', rule],
              `the message key "${key}" is in no catalog; add it to lang/<locale>/${key.split('.')[0]}.yaml (docs/i18n.md) or fix the key`,
              'value',
            );
        }
        if (field.fields) walk(field.fields, [...at, 'fields']);
      }
    };
    walk(route.input, ['routes', route.name, 'input']);
  }
}
