/**
 * Reading a section's create or edit form (docs/back-office.md "Forms"):
 * the fields the resource's create (or update) route binds are bound and
 * checked by that route's own plan — its types, its compiled rules, its
 * messages — so the back office accepts what the API accepts; the other
 * editable fields are checked by the model (required unless nullable or
 * defaulted, the length of a string, an enum's values).
 */
import type { FastifyRequest } from 'fastify';
import { compileBinder } from '../binding/binder.js';
import { describeError } from '../errors/error-info.js';
import type { FieldPlan, RouteDefinition, ScalarKind } from '../routing/route-table.js';
import { compileInputCheck } from '../validation/input-validator.js';
import { formFields, type SectionConfig, type SectionField } from './sections.js';

/** What a posted form gave: the values to write, or the field errors by field name. */
export type FormOutcome =
  | { readonly ok: true; readonly values: Record<string, unknown> }
  | { readonly ok: false; readonly errors: Record<string, string> };

/** A compiled form of one section and mode. */
export interface FormReader {
  /** Read the request's form (URL-encoded or multipart). */
  read(request: FastifyRequest): FormOutcome;
}

const KIND: Readonly<Record<string, ScalarKind>> = {
  integer: 'integer',
  bigint: 'integer',
  number: 'number',
  boolean: 'boolean',
  timestamp: 'timestamp',
  duration: 'duration',
};

/** The field's plan: the route's own when it binds the field from a form, else one made from the model. */
function planOf(field: SectionField, route: RouteDefinition | undefined): { plan: FieldPlan; byRoute: boolean } {
  const own = route?.fields.find((f) => f.key === field.name && f.source === 'body');
  if (own !== undefined) return { plan: { ...own, form: own.form ?? field.name }, byRoute: true };
  const kind = KIND[field.type] ?? 'string';
  return {
    plan: { key: field.name, type: { kind, array: false, nullable: field.nullable }, source: 'body', form: field.name, rules: [] },
    byRoute: false,
  };
}

/** The model's check of a field no route binds; the message, or undefined. */
function modelCheck(field: SectionField, value: unknown, creating: boolean): string | undefined {
  const absent = value === undefined || value === null || value === '';
  if (absent) {
    if (field.nullable || (creating && field.hasDefault && value === undefined)) return undefined;
    if (!creating && value === undefined) return undefined;
    return `The ${field.label} field is required.`;
  }
  if (typeof value === 'string' && field.max !== undefined && [...value].length > field.max)
    return `The ${field.label} field must not be greater than ${field.max} characters.`;
  if (field.type === 'enum' && !field.values?.includes(String(value))) return `The selected ${field.label} is invalid.`;
  return undefined;
}

/**
 * The form of `section` for a create (`route` its create route) or an update (its update route).
 * @throws {BinderyError} `BINDERY_ROUTE_INVALID` when a field cannot be bound (at boot, from the binder).
 */
export function formReader(section: SectionConfig, mode: 'create' | 'update', route: RouteDefinition | undefined): FormReader {
  const fields = formFields(section);
  const plans = fields.map((f) => ({ field: f, ...planOf(f, route) }));
  const derived: RouteDefinition = {
    name: `backOffice.${section.path}.${mode}`,
    method: 'POST',
    path: '/',
    group: null,
    middleware: [],
    result: 'redirect',
    fields: plans.map((p) => p.plan),
    validate: route?.validate ?? null,
    output: null,
    origin: route?.origin ?? 'backOffice()',
  };
  const bind = compileBinder(derived);
  const check = compileInputCheck(derived);
  const creating = mode === 'create';
  return {
    read(request) {
      const body = (request.body ?? {}) as Record<string, unknown>;
      // An empty box of a number, date or enum is no value: absent, not a conversion error.
      const cleaned: Record<string, unknown> = {};
      for (const p of plans) {
        const v = body[p.field.name];
        if (v === undefined) continue;
        if (v === '' && (p.plan.type.kind !== 'string' || p.field.type === 'enum' || p.field.nullable)) continue;
        cleaned[p.field.name] = v;
      }
      const view = { body: cleaned, headers: { 'content-type': 'application/x-www-form-urlencoded' }, query: {}, params: {} };
      const errors: Record<string, string> = {};
      let values: Record<string, unknown>;
      try {
        values = bind(view as unknown as FastifyRequest);
        const failed = check?.(values, view as unknown as FastifyRequest);
        if (failed !== undefined) throw failed;
      } catch (error) {
        const info = describeError(error, false);
        if (info.fieldErrors === undefined) throw error;
        Object.assign(errors, info.fieldErrors);
        values = {};
      }
      for (const p of plans) {
        if (errors[p.field.name] !== undefined) continue;
        const value = values[p.field.name];
        // The route's rules decide its fields; a create still needs every column without a default.
        const problem = p.byRoute
          ? creating && value === undefined && !p.field.nullable && !p.field.hasDefault
            ? `The ${p.field.label} field is required.`
            : undefined
          : modelCheck(p.field, value, creating);
        if (problem !== undefined) errors[p.field.name] = problem;
      }
      if (Object.keys(errors).length > 0) return { ok: false, errors };
      const out: Record<string, unknown> = {};
      for (const p of plans) {
        const value = values[p.field.name];
        if (value !== undefined) out[p.field.name] = value;
        else if (p.field.nullable && p.field.name in body) out[p.field.name] = null;
      }
      return { ok: true, values: out };
    },
  };
}
