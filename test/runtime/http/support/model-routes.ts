/**
 * Route tables from YAML through the generator's own model and validator
 * schema (generator/model, generator/emit/validators/validator-schema.ts),
 * for runtime tests of what the language declares: each route's fields,
 * middleware, token scheme and error format as the generator resolves them,
 * and its validator compiled by ajv with the generator's options.
 */
import { Ajv } from 'ajv';
import * as ajvFormatsModule from 'ajv-formats';
import { Diagnostics, formatDiagnostic } from '../../../../generator/diagnostics.js';
import { addBudgetKeywords } from '../../../../generator/emit/validators/budget-keywords.js';
import { validatorSchema } from '../../../../generator/emit/validators/validator-schema.js';
import { loadSchema } from '../../../../generator/load/load-schema.js';
import { buildModel } from '../../../../generator/model/build-model.js';
import type { CompiledValidator, RouteDefinition } from '../../../../runtime/routing/route-table.js';
import { tempProject } from '../../../generator/support.js';

const addFormats = ((ajvFormatsModule as any).default ?? ajvFormatsModule) as (ajv: Ajv) => Ajv;

/**
 * The route table of one schema file's text.
 * @throws {Error} listing the diagnostics when the schema has errors.
 */
export async function routesFromYaml(yaml: string): Promise<RouteDefinition[]> {
  const project = await tempProject({ 'schema/a.yaml': yaml });
  try {
    const diagnostics = new Diagnostics();
    const files = await loadSchema(project.root, `${project.root}/schema`, diagnostics);
    const model = diagnostics.any ? undefined : buildModel(files, diagnostics);
    if (model === undefined) throw new Error(diagnostics.sorted().map(formatDiagnostic).join('\n'));
    const ajv = addBudgetKeywords(addFormats(new Ajv({ allErrors: true, strictTypes: false })));
    return model.routes.map((route) => {
      const schema = validatorSchema(route);
      return {
        name: route.name,
        method: route.method,
        path: route.path,
        group: route.group,
        middleware: route.middleware,
        result: route.result,
        fields: route.input,
        validate: schema === null ? null : (ajv.compile(schema) as unknown as CompiledValidator),
        output: null,
        origin: 'schema/a.yaml',
        ...(route.tokenScheme !== null ? { tokenScheme: route.tokenScheme } : {}),
        ...(route.errorFormat !== null ? { errorFormat: route.errorFormat } : {}),
      };
    });
  } finally {
    await project.remove();
  }
}
