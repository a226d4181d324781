/**
 * Validator fingerprints: each route's code in `validators.ts` is preceded by
 * `// fingerprint: <hash>`, a hash of what the code is derived from (the
 * route's validator name, its doc line, its JSON Schema, the emitter's format
 * version and the versions of ajv, ajv-formats and ts-morph) together with the
 * code itself. `generate` and `generate --check` reuse a route's code from the
 * file on disk when its fingerprint matches instead of compiling it with ajv
 * again; any
 * edit to the code, or to anything it derives from, changes the hash (see
 * docs/generator.md, "Validator fingerprints").
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';

/**
 * The version of the text `emit-validators.ts`, `format-ajv.ts` and
 * `budget-keywords.ts` write for given inputs. Bump it with any change to
 * that text: the fingerprints then all change, and `generate` compiles every
 * validator again.
 * `test/generator/validator-fingerprints.test.ts` records a hash of these
 * files and fails when one changes, until this version is bumped (or
 * the change confirmed as leaving the text alone) and the hash recorded
 * again.
 */
export const VALIDATORS_FORMAT = 4;

/** The fingerprint comment line, without its hash. */
const PREFIX = '// fingerprint: ';
const LINE = /^\/\/ fingerprint: ([0-9a-f]{32})$/;
const EXPORT = /^export const ([\w$]+): CompiledValidator = /;

let versions: string | undefined;

/** The versions of the packages whose code shapes the validators' text, and the format version. */
function codeVersions(): string {
  if (versions === undefined) {
    const require = createRequire(import.meta.url);
    const version = (name: string): string => {
      try {
        return (require(`${name}/package.json`) as { version?: string }).version ?? '';
      } catch {
        return '';
      }
    };
    versions = `format ${VALIDATORS_FORMAT}\0ajv ${version('ajv')}\0ajv-formats ${version('ajv-formats')}\0ts-morph ${version('ts-morph')}`;
  }
  return versions;
}

/**
 * The key of one route's validator inputs: its name, doc line and JSON
 * Schema (as JSON), and {@link codeVersions}. Hex SHA-256.
 */
export function validatorInputs(name: string, doc: string, schemaJson: string): string {
  return createHash('sha256').update(`${codeVersions()}\0${name}\0${doc}\0${schemaJson}`).digest('hex');
}

/**
 * The fingerprint line of a route's code: `// fingerprint: ` and 32 hex
 * digits of SHA-256 over `inputs` (from {@link validatorInputs}) and `body`
 * (the lines that follow it, up to and including the route's export line).
 */
export function fingerprintLine(inputs: string, body: string): string {
  return `${PREFIX}${createHash('sha256').update(`${inputs}\0${body}`).digest('hex').slice(0, 32)}`;
}

/**
 * The routes' code in a `validators.ts` as written, by validator name: the
 * lines after each fingerprint line up to and including the export line, and
 * the fingerprint. Lines outside that shape are ignored (nothing is reused
 * from them).
 */
export function writtenValidators(text: string): Map<string, { readonly line: string; readonly body: string }> {
  // Found with indexOf and kept as slices of `text`: the file is megabytes at a thousand routes.
  const found = new Map<string, { line: string; body: string }>();
  const lineEnd = (from: number): number => {
    const end = text.indexOf('\n', from);
    return end === -1 ? text.length : end;
  };
  const lineAfter = (from: number): number => {
    const i = text.indexOf(`\n${PREFIX}`, from);
    return i === -1 ? -1 : i + 1;
  };
  for (let at = text.startsWith(PREFIX) ? 0 : lineAfter(0); at !== -1; ) {
    const end = lineEnd(at);
    const next = lineAfter(end);
    const line = text.slice(at, end);
    const exportAt = text.indexOf('\nexport const ', end) + 1;
    if (LINE.test(line) && exportAt > 0 && (next === -1 || exportAt < next)) {
      const exportEnd = lineEnd(exportAt);
      const name = EXPORT.exec(text.slice(exportAt, exportEnd))?.[1];
      if (name !== undefined) found.set(name, { line, body: text.slice(end + 1, exportEnd) });
    }
    at = next;
  }
  return found;
}
