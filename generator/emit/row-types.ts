/**
 * The TypeScript types of a route's output rows with their included paths
 * (docs/schema-language.md "Included relations", "Included paths and batch
 * loading"), shared by the lists, handlers, loaders and client emitters.
 */
import type { Include } from '../model/model.js';
import { resourceTypeNames } from '../model/names.js';

/** The row type: `Note`, or `Document & { owner: User | null; tags: Tag[]; favorited: boolean }` with included paths. */
export function rowType(resource: string, include: readonly Include[]): string {
  return withMembers(resource, include, rowType);
}

/** The JSON type of a row: `NoteJson`, or `DocumentJson & { owner: UserJson | null }`. */
export function jsonRowType(resource: string, include: readonly Include[]): string {
  return withMembers(resourceTypeNames(resource).json, include, jsonRowType);
}

/** `base & { …members }`, each member typed by `nested` for included rows. */
function withMembers(base: string, include: readonly Include[], nested: (resource: string, include: readonly Include[]) => string): string {
  if (include.length === 0) return base;
  const members = include.map((i) => {
    switch (i.kind) {
      case 'count':
        return `${i.name}: number`;
      case 'viewerIn':
        return `${i.name}: boolean`;
      case 'many': {
        const item = nested(i.resource, i.include);
        return `${i.name}: ${i.include.length > 0 ? `(${item})` : item}[]`;
      }
      default: {
        const row = nested(i.resource, i.include);
        return `${i.name}: ${i.include.length > 0 ? `(${row})` : row} | null`;
      }
    }
  });
  return `${base} & { ${members.join('; ')} }`;
}
