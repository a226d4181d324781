/**
 * The binder: request → typed input object (docs/spec.md 4.5, binding steps 1–3).
 *
 * Compiled once per route at boot. Per request it reads the body (JSON into
 * the whole input by JSON names; a form by form names), then query, header
 * and path values, which only fields with those tags read (so the body can
 * never set them), converts every value, fills defaults of absent fields, and
 * throws one {@link ConversionError} (400) listing every field that failed.
 * Text holding U+0000 (which PostgreSQL text cannot store; refused on every
 * database engine alike, see `nul.ts`) is refused for
 * every field, whatever its source, with one {@link ValidationError} (422)
 * listing those fields — before any middleware-free handler code runs.
 * The input object has every field key, in field order (`undefined` when
 * absent without a default).
 */
import type { FastifyRequest } from 'fastify';
import type { FieldPlan, RouteDefinition, ScalarKind, UploadedFile } from '../routing/route-table.js';
import { routeOrigin } from '../routing/route-origin.js';
import { BinderyError } from '../errors/bindery-error.js';
import { ConversionError, ValidationError } from '../errors/validation-error.js';
import { malformedBody } from './body-errors.js';
import { isUrlEncoded, type BodyKind } from './body-kind.js';
import { attributeName, clientName } from './client-names.js';
import { ABSENT, INVALID, conversionMessage, fromJson, fromText } from './convert.js';
import { containsNul, NUL_MESSAGE } from './nul.js';
import { defaultMaker } from './field-defaults.js';
import { MultipartBody, type FormValues } from './multipart.js';

/** Binds one request of a route; throws {@link ConversionError} (400), a 400 for a JSON body that is not an object, or a {@link ValidationError} (422) for text holding U+0000. */
export type Binder = (request: FastifyRequest) => Record<string, unknown>;

const BODY = 0;
const QUERY = 1;
const PATH = 2;
const HEADER = 3;
const SOURCES = { body: BODY, query: QUERY, path: PATH, header: HEADER } as const;
const KINDS: ReadonlySet<string> = new Set<ScalarKind>([
  'string',
  'integer',
  'number',
  'boolean',
  'duration',
  'timestamp',
  'file',
  'json',
  'object',
]);

type TextValue = string | string[] | undefined;

/** A field failing conversion: the whole value, one list item, or a value that is not a list. */
class Failure {
  constructor(
    readonly item: number | undefined,
    readonly notAList: boolean,
  ) {}
}
const SCALAR_FAILURE = new Failure(undefined, false);
const NOT_A_LIST = new Failure(undefined, true);

/** A failing field with its path of keys (`user.email` for a nested one). */
type FieldFailure = [BoundField, Failure, string];

/** The failures inside an object field's value. */
class NestedFailures {
  constructor(readonly list: FieldFailure[]) {}
}

interface BoundField {
  readonly plan: FieldPlan;
  readonly key: string;
  readonly kind: ScalarKind;
  readonly array: boolean;
  readonly nullable: boolean;
  readonly source: number;
  readonly json: string | undefined;
  /** The JSON name is also a member of Object.prototype: read own properties only. */
  readonly jsonOwnOnly: boolean;
  readonly form: string | undefined;
  readonly formList: string | undefined;
  readonly name: string;
  readonly nameList: string;
  readonly makeDefault: (() => unknown) | undefined;
  /** A string, json or file field: its values are checked for U+0000. */
  readonly mayHoldNul: boolean;
  /** The fields of an object field (docs/schema-language.md "Nested input"), else undefined. */
  readonly children: readonly BoundField[] | undefined;
}

/**
 * Compile the binder of `route`.
 * @throws {BinderyError} `BINDERY_ROUTE_INVALID` for a field the binder cannot serve (unknown kind or source, no name for its source, a file not from a form, a json field outside the body, a bad default); the message names the route, field and origin.
 */
export function compileBinder(route: RouteDefinition): Binder {
  const fields = route.fields.map((plan) => compileField(route, plan));
  return function bind(request: FastifyRequest): Record<string, unknown> {
    let json: Record<string, unknown> | undefined;
    let form: FormValues | undefined;
    let files: Record<string, UploadedFile[]> | undefined;
    let stray: ReadonlySet<string> | undefined;
    const body = request.body;
    if (body !== undefined) {
      if (body instanceof MultipartBody) {
        form = body.fields;
        files = body.files;
        stray = body.strayFiles;
      } else if (isUrlEncoded(request.headers['content-type'])) {
        form = body as FormValues;
      } else if (body === null || typeof body !== 'object' || Array.isArray(body)) {
        throw malformedBody('The request body must be a JSON object.');
      } else {
        json = body as Record<string, unknown>;
      }
    }
    const input: Record<string, unknown> = {};
    let failures: FieldFailure[] | undefined;
    let nul: Record<string, string> | undefined;
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i]!;
      let value: unknown;
      switch (f.source) {
        case BODY:
          // Only an object field needs the record of nested NUL failures up front.
          value =
            json !== undefined
              ? fromJsonBody(f, json, f.key, f.children === undefined ? undefined : (nul ??= {}))
              : form !== undefined
                ? fromForm(f, form, files, stray)
                : ABSENT;
          break;
        case QUERY: {
          const query = request.query as Record<string, TextValue>;
          value = fromTextValues(f, query[f.name], query[f.nameList]);
          break;
        }
        case PATH:
          value = fromSplitText(f, (request.params as Record<string, string | undefined>)[f.name]);
          break;
        default: {
          const header = request.headers[f.name];
          value = fromSplitText(f, Array.isArray(header) ? header.join(', ') : header);
        }
      }
      if (value === ABSENT) input[f.key] = f.makeDefault === undefined ? undefined : f.makeDefault();
      else if (value instanceof Failure) (failures ??= []).push([f, value, f.key]);
      else if (value instanceof NestedFailures) (failures ??= []).push(...value.list);
      else {
        if (f.mayHoldNul && containsNul(value)) (nul ??= {})[f.key] = NUL_MESSAGE;
        input[f.key] = value;
      }
    }
    if (failures !== undefined) throw conversionError(failures, json !== undefined ? 'json' : form !== undefined ? 'form' : 'none');
    if (nul !== undefined && hasKeys(nul)) throw new ValidationError(nul);
    return input;
  };
}

/**
 * The value of `f` from the JSON object `json` (the body, or an object
 * field's value); `path` is its key path, `nul` collects the paths of
 * nested text holding U+0000.
 */
function fromJsonBody(f: BoundField, json: Record<string, unknown>, path: string, nul: Record<string, string> | undefined): unknown {
  if (f.json === undefined) return ABSENT;
  if (f.jsonOwnOnly && !Object.hasOwn(json, f.json)) return ABSENT;
  const v = json[f.json];
  if (v === undefined) return ABSENT;
  if (v === null) return f.nullable ? null : ABSENT;
  if (f.children !== undefined) return bindObject(f.children, v, path, nul!);
  if (!f.array) {
    const c = fromJson(f.kind, v);
    return c === INVALID ? SCALAR_FAILURE : c;
  }
  if (!Array.isArray(v)) return NOT_A_LIST;
  if (f.kind === 'json') return v;
  // Strings need no conversion: keep the freshly parsed list as it is.
  const out: unknown[] | undefined = f.kind === 'string' ? undefined : new Array<unknown>(v.length);
  for (let i = 0; i < v.length; i++) {
    const c = fromJson(f.kind, v[i]);
    if (c === INVALID) return new Failure(i, false);
    if (out !== undefined) out[i] = c;
  }
  return out ?? v;
}

/**
 * An object field's value: its fields bound from the members of `v`, in
 * field order (absent ones `undefined` or their default); members not
 * declared are left out. A value that is not an object fails as a whole.
 */
function bindObject(children: readonly BoundField[], v: unknown, path: string, nul: Record<string, string>): unknown {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return SCALAR_FAILURE;
  const source = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  let failures: FieldFailure[] | undefined;
  for (const c of children) {
    const at = `${path}.${c.key}`;
    const value = fromJsonBody(c, source, at, nul);
    if (value === ABSENT) out[c.key] = c.makeDefault === undefined ? undefined : c.makeDefault();
    else if (value instanceof Failure) (failures ??= []).push([c, value, at]);
    else if (value instanceof NestedFailures) (failures ??= []).push(...value.list);
    else {
      if (c.mayHoldNul && containsNul(value)) nul[at] = NUL_MESSAGE;
      out[c.key] = value;
    }
  }
  return failures === undefined ? out : new NestedFailures(failures);
}

function fromForm(
  f: BoundField,
  form: FormValues,
  files: Record<string, UploadedFile[]> | undefined,
  stray: ReadonlySet<string> | undefined,
): unknown {
  if (f.form === undefined) return ABSENT;
  const text = form[f.form];
  const textList = form[f.formList!];
  const uploads = files === undefined ? undefined : concat(files[f.form], files[f.formList!]);
  if (f.kind === 'file') {
    if (uploads !== undefined && uploads.length > 0) return f.array ? uploads : uploads[0];
    return hasText(text) || hasText(textList) ? SCALAR_FAILURE : ABSENT;
  }
  if (text === undefined && textList === undefined)
    return (uploads !== undefined && uploads.length > 0) || stray?.has(f.form) || stray?.has(f.formList!) ? SCALAR_FAILURE : ABSENT;
  return fromTextValues(f, text, textList);
}

/** Query and form values: `name` then `name[]`; a scalar takes the first value, a list all non-empty ones. */
function fromTextValues(f: BoundField, a: TextValue, b: TextValue): unknown {
  if (!f.array) {
    const first = a !== undefined ? (typeof a === 'string' ? a : a[0]) : b !== undefined ? (typeof b === 'string' ? b : b[0]) : undefined;
    if (first === undefined) return ABSENT;
    const c = fromText(f.kind, first);
    return c === INVALID ? SCALAR_FAILURE : c;
  }
  if (a === undefined && b === undefined) return ABSENT;
  return fromTextList(f, listOf(a, b));
}

/** Path and header values: one text; a list field splits it on commas. */
function fromSplitText(f: BoundField, text: string | undefined): unknown {
  if (text === undefined) return ABSENT;
  if (!f.array) {
    const c = fromText(f.kind, f.source === HEADER ? text.trim() : text);
    return c === INVALID ? SCALAR_FAILURE : c;
  }
  return fromTextList(
    f,
    text.split(',').map((s) => s.trim()),
  );
}

function fromTextList(f: BoundField, items: readonly string[]): unknown {
  const out: unknown[] = [];
  for (let i = 0; i < items.length; i++) {
    const t = items[i]!;
    if (t === '') continue;
    const c = fromText(f.kind, t);
    if (c === INVALID) return new Failure(i, false);
    out.push(c);
  }
  return out.length === 0 ? ABSENT : out;
}

function listOf(a: TextValue, b: TextValue): string[] {
  const out: string[] = [];
  if (a !== undefined) typeof a === 'string' ? out.push(a) : out.push(...a);
  if (b !== undefined) typeof b === 'string' ? out.push(b) : out.push(...b);
  return out;
}

function concat<T>(a: T[] | undefined, b: T[] | undefined): T[] | undefined {
  return a === undefined ? b : b === undefined ? a : [...a, ...b];
}

function hasKeys(o: object): boolean {
  for (const _ in o) return true;
  return false;
}

function hasText(v: TextValue): boolean {
  return v !== undefined && (typeof v === 'string' ? v !== '' : v.some((s) => s !== ''));
}

function conversionError(failures: readonly FieldFailure[], bodyKind: BodyKind): ConversionError {
  const fieldErrors: Record<string, string> = {};
  for (const [f, failure, path] of failures) {
    const attribute = attributeName(clientName(f.plan, bodyKind), failure.item);
    fieldErrors[path] = conversionMessage(f.kind, attribute, failure.notAList);
  }
  return new ConversionError(fieldErrors);
}

function compileField(route: RouteDefinition, plan: FieldPlan): BoundField {
  const fail = (why: string): never => {
    throw new BinderyError('BINDERY_ROUTE_INVALID', `${routeOrigin(route)}: route "${route.name}", field "${plan.key}": ${why}.`);
  };
  const source = (SOURCES as Record<string, number | undefined>)[plan.source];
  if (source === undefined) fail(`unknown source "${String(plan.source)}" (expected body, query, path or header)`);
  if (!KINDS.has(plan.type.kind)) fail(`unknown type "${String(plan.type.kind)}"`);
  if (source === BODY && plan.json === undefined && plan.form === undefined) fail('a body field needs a json or form name');
  if (source !== BODY && (plan.name === undefined || plan.name === '')) fail(`a ${plan.source} field needs a name`);
  if (plan.type.kind === 'file' && (source !== BODY || plan.form === undefined))
    fail('a file binds only from a multipart form field (form tag)');
  if (plan.type.kind === 'json' && source !== BODY) fail('a json field binds only from the body');
  if (plan.type.kind === 'object' && (source !== BODY || plan.json === undefined || plan.type.array || plan.fields === undefined))
    fail('an object field binds only from a JSON body member, as one object with its fields');
  const children = plan.type.kind === 'object' ? (plan.fields ?? []).map((child) => compileField(route, child)) : undefined;
  let makeDefault: (() => unknown) | undefined;
  try {
    makeDefault = defaultMaker(plan);
  } catch (err) {
    fail((err as Error).message);
  }
  const name = source === HEADER ? plan.name!.toLowerCase() : (plan.name ?? plan.key);
  return {
    plan,
    key: plan.key,
    kind: plan.type.kind,
    array: plan.type.array,
    nullable: plan.type.nullable,
    source: source!,
    json: plan.json,
    jsonOwnOnly: plan.json !== undefined && plan.json in Object.prototype,
    form: plan.form,
    formList: plan.form === undefined ? undefined : `${plan.form}[]`,
    name,
    nameList: `${name}[]`,
    makeDefault,
    mayHoldNul: plan.type.kind === 'string' || plan.type.kind === 'json' || plan.type.kind === 'file',
    children,
  };
}
