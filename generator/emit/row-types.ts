/**
 * The TypeScript types of a route's output rows with their included
 * relations (docs/schema-language.md "Included relations"), shared by the
 * lists, handlers and client emitters.
 */
import type { Include } from '../model/model.js';
import { resourceTypeNames } from '../model/names.js';

/** The row type: `Note`, or `Document & { owner: User | null }` with included relations. */
export function rowType(resource: string, include: readonly Include[]): string {
  if (include.length === 0) return resource;
  return `${resource} & { ${include.map((i) => `${i.name}: ${i.resource} | null`).join('; ')} }`;
}

/** The JSON type of a row: `NoteJson`, or `DocumentJson & { owner: UserJson | null }`. */
export function jsonRowType(resource: string, include: readonly Include[]): string {
  const json = resourceTypeNames(resource).json;
  if (include.length === 0) return json;
  return `${json} & { ${include.map((i) => `${i.name}: ${resourceTypeNames(i.resource).json} | null`).join('; ')} }`;
}
