/**
 * The back office's writes: each through the section's tracked model (the
 * audit layer, docs/audit.md), in the request's context with `via_kind`
 * `admin` and `via_name` `back-office <section>.<action>`, so the entry
 * names the signed-in person and the back office.
 */
import type { RequestContext } from '../http/context.js';
import type { TrackedModel } from '../audit/tracked-model.js';
import { withVia } from '../context/execution-context.js';
import type { SectionConfig } from './sections.js';

/** The tracked model of the section's resource. */
export function modelOf(ctx: RequestContext, section: SectionConfig): TrackedModel {
  const models = (ctx.services as unknown as { models?: Record<string, TrackedModel> }).models;
  const model = models?.[section.resource];
  if (model === undefined)
    throw new Error(`backOffice(): resource ${section.resource} has no tracked model; list it in audit({ tracked }) (generated/audit.ts).`);
  return model;
}

/** Run `write` with `via` `{ kind: 'admin', name: 'back-office <section>.<action>' }`. */
export function asAdmin<T>(section: SectionConfig, action: string, write: () => Promise<T>): Promise<T> {
  return withVia({ kind: 'admin', name: `back-office ${section.path}.${action}` }, write);
}
