/**
 * Rule checks of a bound input (docs/spec.md 4.5, binding step 4).
 *
 * Runs the route's compiled ajv validator, then the cross-field rules
 * (`RULES[name].check`) ajv cannot express. Only the first failing rule of a
 * field — the lowest rule index — is reported, worded by `ruleMessage` with
 * the client's name of the field; for an `each` rule the message names the
 * first failing item (`tags.1`). Failures are thrown as one
 * {@link ValidationError} (422) keyed by input key in field order.
 *
 * The ajv errors map to fields and rules through the contract of
 * `CompiledValidator`: `schemaPath` `#/properties/<key>/allOf/<ruleIndex>/…`
 * (item index from `instancePath` `/<key>/<item>`), and top-level `required`
 * errors through `params.missingProperty`.
 */
import type { FastifyRequest } from 'fastify';
import type { FieldPlan, RouteDefinition, RuleRef } from '../routing/route-table.js';
import { BinderyError } from '../errors/bindery-error.js';
import { ValidationError } from '../errors/validation-error.js';
import { bodyKindOf } from '../binding/body-kind.js';
import { attributeName, clientName } from '../binding/client-names.js';
import { RULES, ruleMessage, type RuleSpec } from './rules.js';
import { ruleMessageRef } from './rule-message-ref.js';
import type { LocalizedMessage } from '../errors/localized-message.js';

/** Checks a bound input; throws {@link ValidationError} (422) when a rule fails. */
export type InputValidator = (input: Record<string, unknown>, request: FastifyRequest) => void;

/**
 * Checks a bound input; returns the {@link ValidationError} (422) to answer when a rule fails,
 * `undefined` when every rule passed. The request pipeline uses it so that an invalid
 * request is answered without a `throw` (each costs a few microseconds).
 */
export type InputCheck = (input: Record<string, unknown>, request: FastifyRequest) => ValidationError | undefined;

interface CrossRule {
  readonly index: number;
  readonly rule: RuleRef;
  readonly spec: RuleSpec;
}

interface CheckedField {
  readonly plan: FieldPlan;
  /** Its key path: `title`, or `user.email` for a field of the object field `user`. */
  readonly path: string;
  /** The keys of the object holding it in the input (empty for a top-level field). */
  readonly parents: readonly string[];
  /** Index of the `required` rule, or -1. */
  readonly requiredIndex: number;
  readonly cross: readonly CrossRule[];
}

/** The first failure of a field: rule index and, for `each`, the item. */
interface FieldFailure {
  rule: number;
  item: number | undefined;
}

/**
 * Compile the rule checks of `route`.
 * @returns the validator, or `null` when the route has no validator and no cross-field rule (nothing to check).
 * @throws {BinderyError} `BINDERY_ROUTE_INVALID` when a field names a rule missing from the catalog, or an `each` rule without its inner rule.
 */
export function compileInputValidator(route: RouteDefinition): InputValidator | null {
  const check = compileInputCheck(route);
  if (check === null) return null;
  return function validateInput(input, request) {
    const invalid = check(input, request);
    if (invalid !== undefined) throw invalid;
  };
}

/**
 * Compile the rule checks of `route`, as {@link compileInputValidator} does, into a check that
 * returns its failure instead of throwing it.
 * @returns the check, or `null` when the route has no validator and no cross-field rule.
 * @throws {BinderyError} `BINDERY_ROUTE_INVALID` as {@link compileInputValidator}.
 */
export function compileInputCheck(route: RouteDefinition): InputCheck | null {
  const fields: CheckedField[] = flatten(route.fields, []).map(({ plan, parents }) => {
    const cross: CrossRule[] = [];
    plan.rules.forEach((rule, index) => {
      const spec = RULES[rule.name];
      if (spec === undefined) {
        throw new BinderyError(
          'BINDERY_ROUTE_INVALID',
          `${route.origin}: route "${route.name}", field "${plan.key}": unknown rule "${rule.name}"; regenerate with "bindery generate".`,
        );
      }
      if (rule.name === 'each' && (rule.inner === undefined || RULES[rule.inner.name] === undefined)) {
        throw new BinderyError(
          'BINDERY_ROUTE_INVALID',
          `${route.origin}: route "${route.name}", field "${plan.key}": rule "each" has no known inner rule.`,
        );
      }
      if (spec.check !== undefined) cross.push({ index, rule, spec });
    });
    const path = [...parents, plan.key].join('.');
    return { plan, path, parents, requiredIndex: plan.rules.findIndex((r) => r.name === 'required'), cross };
  });
  const validate = route.validate;
  const hasCross = fields.some((f) => f.cross.length > 0);
  if (validate === null && !hasCross) return null;
  const byKey = new Map(fields.map((f, i) => [f.path, i]));
  const messages = route.errorFormat?.messages;
  // Where each schema path points, worked out on its first failure: the paths
  // come from the route's compiled schema, so the map stays small.
  const places = new Map<string, Place | null>();

  return function checkInput(input, request) {
    if ((validate === null || validate(input)) && !hasCross) return undefined;
    const failures: Array<FieldFailure | undefined> = new Array(fields.length);
    if (validate?.errors) {
      for (const error of validate.errors) {
        const located = locate(error, byKey, fields, places);
        if (located !== undefined) note(failures, located[0], located[1], located[2]);
      }
    }
    if (hasCross) runCrossRules(fields, input, failures);
    const fieldErrors: Record<string, string> = {};
    const fieldMessages: Record<string, LocalizedMessage> = {};
    let failed = false;
    let bodyKind: ReturnType<typeof bodyKindOf> | undefined;
    for (let i = 0; i < fields.length; i++) {
      const failure = failures[i];
      if (failure === undefined) continue;
      const { plan, path } = fields[i]!;
      bodyKind ??= bodyKindOf(request);
      const rule = plan.rules[failure.rule];
      const item = rule?.name === 'each' ? failure.item : undefined;
      const attribute = attributeName(clientName(plan, bodyKind), item);
      fieldErrors[path] = rule === undefined ? `The ${attribute} field is invalid.` : ruleMessage(rule, plan.type, attribute, messages);
      // A group's own sentence (errorFormat) stays as written; the rest is answered in the request's locale (docs/i18n.md).
      if (rule === undefined) fieldMessages[path] = { key: 'validation.invalid', values: { attribute }, fields: { attribute: path } };
      else if (messages === undefined || !Object.hasOwn(messages, rule.name))
        fieldMessages[path] = ruleMessageRef(rule, plan.type, attribute, item === undefined ? path : undefined, ownMessage(plan, rule));
      failed = true;
    }
    // ajv said no but named no field we know: still a 422, without field errors.
    return failed || (validate?.errors && validate.errors.length > 0)
      ? new ValidationError(fieldErrors, undefined, fieldMessages)
      : undefined;
  };
}

/** The catalog key the field's YAML gives a rule (`messages:`; an `each` rule's by its inner rule's name too). */
function ownMessage(plan: FieldPlan, rule: RuleRef): string | undefined {
  const own = plan.messages;
  if (own === undefined) return undefined;
  return own[rule.name] ?? (rule.inner === undefined ? undefined : own[rule.inner.name]);
}

type AjvError = NonNullable<NonNullable<RouteDefinition['validate']>['errors']>[number];

/** Where an ajv error's schema path points: the field index, the rule index, and how deep the field's key path is. */
interface Place {
  readonly field: number;
  readonly rule: number;
  readonly depth: number;
}

/**
 * The field index, rule index and item index an ajv error points at, or `undefined`.
 * `places` keeps what a schema path (and missing property) resolved to, `null` for nothing.
 */
function locate(
  error: AjvError,
  byKey: ReadonlyMap<string, number>,
  fields: readonly CheckedField[],
  places: Map<string, Place | null>,
): [number, number, number | undefined] | undefined {
  if (error.keyword === 'required') {
    const key = error.params['missingProperty'];
    if (typeof key !== 'string') return undefined;
    const id = `${error.schemaPath}\0${key}`;
    let place = places.get(id);
    if (place === undefined) {
      place = placeOfRequired(error.schemaPath, key, byKey, fields);
      places.set(id, place);
    }
    return place === null ? undefined : [place.field, place.rule, undefined];
  }
  let place = places.get(error.schemaPath);
  if (place === undefined) {
    place = placeOfRule(error.schemaPath, byKey);
    places.set(error.schemaPath, place);
  }
  if (place === null) return undefined;
  // instancePath: /<key>/…/<key>/<item>
  const segments = error.instancePath.split('/');
  const at = place.depth + 1;
  const item = segments.length > at && /^\d+$/.test(segments[at]!) ? Number(segments[at]) : undefined;
  return [place.field, place.rule, item];
}

/** The field and its `required` rule a `required` error's schema path and missing property point at, or `null`. */
function placeOfRequired(
  schemaPath: string,
  key: string,
  byKey: ReadonlyMap<string, number>,
  fields: readonly CheckedField[],
): Place | null {
  const at = /^#((?:\/properties\/[^/]+)*)\/required$/.exec(schemaPath);
  if (at === null) return null;
  const index = byKey.get([...propertyPath(at[1]!), key].join('.'));
  if (index === undefined) return null;
  const rule = fields[index]!.requiredIndex;
  return { field: index, rule: rule === -1 ? 0 : rule, depth: 0 };
}

/** The field and rule an error's schema path `#/properties/<key>…/allOf/<rule>/…` points at, or `null`. */
function placeOfRule(schemaPath: string, byKey: ReadonlyMap<string, number>): Place | null {
  const m = /^#((?:\/properties\/[^/]+)+)\/allOf\/(\d+)(?:\/|$)/.exec(schemaPath);
  if (m === null) return null;
  const keys = propertyPath(m[1]!);
  const index = byKey.get(keys.join('.'));
  if (index === undefined) return null;
  return { field: index, rule: Number(m[2]), depth: keys.length };
}

function note(failures: Array<FieldFailure | undefined>, field: number, rule: number, item: number | undefined): void {
  const seen = failures[field];
  if (seen === undefined) failures[field] = { rule, item };
  else if (rule < seen.rule) {
    seen.rule = rule;
    seen.item = item;
  } else if (rule === seen.rule && item !== undefined && (seen.item === undefined || item < seen.item)) seen.item = item;
}

/** Cross-field rules of fields with a value, for rules before the field's first ajv failure. */
function runCrossRules(fields: readonly CheckedField[], input: Record<string, unknown>, failures: Array<FieldFailure | undefined>): void {
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    if (f.cross.length === 0) continue;
    const holder = holderOf(input, f.parents);
    const value = holder?.[f.plan.key];
    if (value === undefined || value === null) continue;
    for (const c of f.cross) {
      const seen = failures[i];
      if (seen !== undefined && seen.rule < c.index) break;
      if (!c.spec.check!(value, holder!, c.rule.params, f.plan.key)) {
        note(failures, i, c.index, undefined);
        break;
      }
    }
  }
}

/** Every field of `plans` with the keys of the object holding it, nested fields right after their object. */
function flatten(plans: readonly FieldPlan[], parents: readonly string[]): { plan: FieldPlan; parents: readonly string[] }[] {
  return plans.flatMap((plan) => [{ plan, parents }, ...(plan.fields ? flatten(plan.fields, [...parents, plan.key]) : [])]);
}

/** The object at `keys` of the input (the input itself for none), or undefined when one is absent. */
function holderOf(input: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> | undefined {
  let at: unknown = input;
  for (const key of keys) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return typeof at === 'object' && at !== null ? (at as Record<string, unknown>) : undefined;
}

/** The keys of a schema path's `/properties/<key>` chain. */
function propertyPath(chain: string): string[] {
  return chain.split('/properties/').slice(1).map(unescapePointer);
}

function unescapePointer(segment: string): string {
  let s = segment;
  try {
    s = decodeURIComponent(segment);
  } catch {
    /* keep as is */
  }
  return s.replace(/~1/g, '/').replace(/~0/g, '~');
}
