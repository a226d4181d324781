/**
 * The output shapes in `generated/client.ts` (docs/schema-language.md
 * "Output shapes"): the JSON type of each named shape a route reaches
 * (`ProfileJson`) and of each route's own output (`<Route>OutputJson`).
 */
import type { Model, Route } from '../../model/model.js';
import { shapeTypeNames } from '../../model/names.js';
import { memberSignature, outputNames, shapeRoutes, shapeTsType } from '../shape-types.js';
import { jsonTsType } from '../types/ts-types.js';
import { docText, propertyName } from '../ts-source.js';

/**
 * The declarations, in schema order: shapes, then routes' own outputs.
 * @param reached the names of the shapes the client's routes reach.
 */
export function clientShapeTypes(model: Model, routes: readonly Route[], reached: ReadonlySet<string>): string[] {
  const resources = new Map(model.resources.map((r) => [r.name, r]));
  const parts: string[] = [];
  for (const shape of model.shapes.filter((s) => reached.has(s.name))) {
    const resource = shape.from ? resources.get(shape.from.resource)! : null;
    const fields = resource ? resource.fields.filter((f) => shape.from!.fields.includes(f.name)) : [];
    const lines = [
      ...fields.map((f) => {
        const doc = [f.description ? docText(f.description) : '', f.omitEmpty ? 'Absent when empty (null, "" or []).' : '']
          .filter(Boolean)
          .join(' ');
        return `${doc ? `  /** ${doc} */\n` : ''}  ${propertyName(f.json)}${f.omitEmpty ? '?' : ''}: ${jsonTsType(f)};`;
      }),
      ...shape.members.map((m) => `${m.description ? `  /** ${docText(m.description)} */\n` : ''}  ${memberSignature(m, 'json')};`),
    ];
    const about = shape.description ? ` ${docText(shape.description)}` : '';
    parts.push(
      `/** Shape ${shape.name} as the API sends it.${about} */\nexport interface ${shapeTypeNames(shape.name)[1]} {\n${lines.join('\n')}\n}`,
    );
  }
  for (const route of shapeRoutes(routes)) {
    const names = outputNames(route);
    if (!names.own) continue;
    parts.push(
      `/** The JSON body of \`${route.name}\` (${route.method} ${route.path}). */\nexport type ${names.json} = ${shapeTsType(route.shape.type, 'json', route.shape.nullable)};`,
    );
  }
  return parts;
}
