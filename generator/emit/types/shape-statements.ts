/**
 * The output shapes' declarations in `generated/types.ts`
 * (docs/schema-language.md "Output shapes"): per named shape its value
 * (`Profile`; a projection extends `Pick<Article, …>`) and its JSON
 * (`ProfileJson`); per route whose output is not a resource or a named
 * shape, `<Route>Output` and `<Route>OutputJson`.
 */
import { StructureKind, type PropertySignatureStructure, type StatementStructures } from '../ts-structures.js';
import type { Model, Resource, Shape, ShapeMember } from '../../model/model.js';
import { resourceTypeNames, shapeTypeNames } from '../../model/names.js';
import { outputNames, shapeRoutes, shapeTsType, type ShapeSide } from '../shape-types.js';
import { docText, propertyName, quote } from '../ts-source.js';
import { jsonTsType } from './ts-types.js';

/** The declarations of every shape, then of every route's own output type. */
export function shapeStatements(model: Model): StatementStructures[] {
  const resources = new Map(model.resources.map((r) => [r.name, r]));
  const statements: StatementStructures[] = [];
  for (const shape of model.shapes) statements.push(...namedShape(shape, shape.from ? resources.get(shape.from.resource)! : null));
  for (const route of shapeRoutes(model.routes)) {
    const names = outputNames(route);
    if (!names.own) continue;
    const where = `route \`${route.name}\` (${route.method} ${route.path})`;
    statements.push(
      {
        kind: StructureKind.TypeAlias,
        name: names.value,
        isExported: true,
        docs: [`What the handler of ${where} returns; the runtime writes it as \`${names.json}\`.`],
        type: shapeTsType(route.shape.type, 'value', route.shape.nullable),
      },
      {
        kind: StructureKind.TypeAlias,
        name: names.json,
        isExported: true,
        docs: [`The JSON body of ${where}.`],
        type: shapeTsType(route.shape.type, 'json', route.shape.nullable),
      },
    );
  }
  return statements;
}

function namedShape(shape: Shape, resource: Resource | null): StatementStructures[] {
  const [value, json] = shapeTypeNames(shape.name);
  const about = shape.description ? ` ${docText(shape.description)}` : '';
  const fields = resource ? resource.fields.filter((f) => shape.from!.fields.includes(f.name)) : [];
  const picked = fields.length > 0 ? fields.map((f) => quote(f.name)).join(' | ') : 'never';
  return [
    {
      kind: StructureKind.Interface,
      name: value,
      isExported: true,
      docs: [`Shape ${shape.name}: what a handler returns for it (\`serialize${shape.name}\` writes it as \`${json}\`).${about}`],
      ...(resource ? { extends: [`Pick<${resourceTypeNames(resource.name).row}, ${picked}>`] } : {}),
      properties: shape.members.map((m) => member(m, 'value')),
    },
    {
      kind: StructureKind.Interface,
      name: json,
      isExported: true,
      docs: [`Shape ${shape.name} as JSON.${about}`],
      properties: [
        ...fields.map(
          (f): PropertySignatureStructure => ({
            name: propertyName(f.json),
            type: jsonTsType(f),
            hasQuestionToken: f.omitEmpty,
            ...(f.omitEmpty ? { docs: ['Absent when empty (null, "" or []).'] } : {}),
          }),
        ),
        ...shape.members.map((m) => member(m, 'json')),
      ],
    },
  ];
}

function member(m: ShapeMember, side: ShapeSide): PropertySignatureStructure {
  return {
    name: propertyName(m.name),
    type: shapeTsType(m.type, side, m.nullable),
    hasQuestionToken: m.optional || (side === 'value' && m.nullable),
    ...(m.description ? { docs: [docText(m.description)] } : {}),
  };
}
