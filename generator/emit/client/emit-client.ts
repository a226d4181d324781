/**
 * `generated/client.ts`: a typed HTTP client of the routes, built from the
 * same model as the route table (docs/client.md). Self-contained — it
 * imports nothing and needs only `fetch` (Node 20+, browsers) — so a
 * front-end project can copy or import it as it is.
 *
 * `createClient(options)` returns an object keyed by route name
 * (`notes.create` → `client.notes.create(input)`); each method places the
 * input's fields where the binding plan reads them (path, query, header,
 * JSON or form body) and resolves to the route's output (a list route's:
 * a page, which `pages()` and `rows()` walk to the end). Page routes are
 * left out (they answer HTML to browsers); redirect routes resolve to
 * `{ location }`; failures reject with `ApiError`.
 *
 * Written as text in one pass (no per-statement AST edits).
 */
import type { InputField, Resource, Route } from '../../model/model.js';
import { inputTypeName, resourceTypeNames } from '../../model/names.js';
import { jsonTsType } from '../types/ts-types.js';
import { enumUnion } from '../../model/enum-values.js';
import type { EmitContext } from '../context.js';
import { fileOfParts, type GeneratedFile } from '../../write/generated-file.js';
import { docText, propertyName, quote } from '../ts-source.js';
import { CLIENT_LIST_RUNTIME, CLIENT_OFFSET_RUNTIME, CLIENT_RUNTIME } from './client-runtime.js';
import { jsonRowType } from '../row-types.js';
import { routeErrorsSource } from './route-errors.js';
import { clientShapeTypes } from './client-shapes.js';
import { answeredTypes, outputNames } from '../shape-types.js';

/** Routes the client offers: every route but pages. */
export function clientRoutes(routes: readonly Route[]): Route[] {
  return routes.filter((r) => r.result !== 'page');
}

/** Emit `client.ts` (see the module comment). */
export function emitClient(ctx: EmitContext): GeneratedFile {
  const routes = clientRoutes(ctx.model.routes);
  const answered = answeredTypes(ctx.model, routes);
  const outputs = answered.resources;
  const resources = ctx.model.resources.filter((r) => outputs.has(r.name));
  const parts: string[] = [
    `/**\n * A typed client of ${docText(ctx.model.info.title)} ${docText(ctx.model.info.version)}: one method per route (page routes excluded).\n * Needs only \`fetch\`; see docs/client.md.\n */`,
    CLIENT_RUNTIME.trim(),
    ...(routes.some((r) => r.list !== null) ? [CLIENT_LIST_RUNTIME.trim()] : []),
    ...(routes.some((r) => r.list?.paging === 'offset') ? [CLIENT_OFFSET_RUNTIME.trim()] : []),
    ...(resources.some((r) => r.fields.some((f) => f.type.kind === 'file' && !f.hidden)) ? [FILE_JSON] : []),
    ...resources.map(resourceInterface),
    ...clientShapeTypes(ctx.model, routes, answered.shapes),
    ...routes.map(inputInterface),
    routeErrorsSource(routes, ctx.model),
    createClientFunction(routes),
  ];
  return fileOfParts('client.ts', `// ${ctx.header}\n`, parts.join('\n\n'), '\n');
}

/** The JSON of a `type: file` field (docs/storage.md "Files of rows"). */
const FILE_JSON = `/** A stored file as the API sends it: download it from \`url\` (signed; it expires, so read it from a fresh answer). */
export interface FileJson {
  name: string;
  /** Size in bytes. */
  size: number;
  /** Detected from the bytes, not from the name. */
  content_type: string;
  /** SHA-256 of the bytes, lower-case hex. */
  checksum: string;
  url: string | null;
}`;

function resourceInterface(resource: Resource): string {
  const name = resourceTypeNames(resource.name).json;
  const lines = resource.fields
    .filter((f) => !f.hidden)
    .map((f) => {
      const doc = [f.description ? docText(f.description) : '', f.omitEmpty ? 'Absent when empty (null, "" or []).' : '']
        .filter(Boolean)
        .join(' ');
      return `${doc ? `  /** ${doc} */\n` : ''}  ${propertyName(f.json)}${f.omitEmpty ? '?' : ''}: ${jsonTsType(f)};`;
    });
  const about = resource.description ? ` ${docText(resource.description)}` : '';
  return `/** ${resource.name} as the API sends it (JSON names, timestamps as RFC 3339 text).${about} */\nexport interface ${name} {\n${lines.join('\n')}\n}`;
}

const INPUT_TS: Readonly<Record<InputField['type']['kind'], string>> = {
  string: 'string',
  integer: 'number',
  number: 'number',
  boolean: 'boolean',
  duration: 'number | string',
  timestamp: 'Date | string',
  file: 'Blob',
  json: 'JsonValue',
  object: 'object',
};

/** A field's type as the client takes it: durations as ms or text, timestamps as Date or RFC 3339 text, files as Blob, objects as their members. */
function clientFieldType(f: InputField): string {
  const base = f.fields
    ? `{ ${f.fields.map((c) => `${propertyName(c.key)}${c.required ? '' : '?'}: ${clientFieldType(c)}`).join('; ')} }`
    : f.values
      ? enumUnion(f.values)
      : INPUT_TS[f.type.kind];
  const list = f.type.array ? (base.includes(' ') ? `(${base})[]` : `${base}[]`) : base;
  return f.type.nullable ? `${list} | null` : list;
}

function inputInterface(route: Route): string {
  const name = inputTypeName(route.name);
  const doc = `/** Input of \`${route.name}\` (${route.method} ${route.path}). */`;
  if (route.input.length === 0) return `${doc}\nexport type ${name} = Record<string, never>;`;
  const lines = route.input.map((f) => {
    const optional = !(f.required || f.source === 'path');
    const where =
      f.source === 'body'
        ? f.json !== undefined
          ? `JSON member \`${f.json}\``
          : `form field \`${f.form}\``
        : `${f.source} ${f.source === 'path' ? 'parameter' : 'value'} \`${f.name}\``;
    const rules = f.rules.length > 0 ? `Rules: ${f.rules.map(ruleText).join(', ')}.` : '';
    const extra = [
      rules,
      f.default !== undefined ? `Default: ${JSON.stringify(f.default)}.` : '',
      f.description ? docText(f.description) : '',
    ]
      .filter(Boolean)
      .join(' ');
    return `  /** Sent as the ${where}.${extra ? ` ${extra}` : ''} */\n  ${propertyName(f.key)}${optional ? '?' : ''}: ${clientFieldType(f)};`;
  });
  return `${doc}\nexport interface ${name} {\n${lines.join('\n')}\n}`;
}

/** A rule as written in the YAML: `max:200`, `each:alpha_dash`. */
function ruleText(rule: InputField['rules'][number]): string {
  if (rule.inner) return `${rule.name}:${ruleText(rule.inner)}`;
  return docText(rule.params.length > 0 ? `${rule.name}:${rule.params.join(',')}` : rule.name);
}

/** How the runtime part of the file sends a route: the `RouteSpec` literal. */
function specLiteral(route: Route): string {
  const body = route.input.filter((f) => f.source === 'body');
  const multipart = body.some((f) => f.type.kind === 'file');
  const form = !multipart && body.some((f) => f.json === undefined);
  const encoding = body.length === 0 ? 'none' : multipart ? 'multipart' : form ? 'form' : 'json';
  const pairs = (fields: readonly InputField[], name: (f: InputField) => string | undefined): string =>
    `[${fields.map((f) => `[${quote(f.key)}, ${quote(name(f) ?? f.key)}]`).join(', ')}]`;
  const bodyName = (f: InputField): string | undefined => (encoding === 'json' ? f.json : (f.form ?? f.json));
  const answer = answerKind(route);
  return (
    `{ route: ${quote(route.name)}, method: ${quote(route.method)}, path: ${quote(route.path)}, ` +
    `path_: ${pairs(
      route.input.filter((f) => f.source === 'path'),
      (f) => f.name,
    )}, ` +
    `query: ${pairs(
      route.input.filter((f) => f.source === 'query'),
      (f) => f.name,
    )}, ` +
    `headers: ${pairs(
      route.input.filter((f) => f.source === 'header'),
      (f) => f.name,
    )}, ` +
    `body: ${pairs(body, bodyName)}, encoding: ${quote(encoding)}, answer: ${quote(answer)}` +
    `${route.tokenScheme !== null && route.tokenScheme !== 'Bearer' ? `, scheme: ${quote(route.tokenScheme)}` : ''} }`
  );
}

function answerKind(route: Route): string {
  switch (route.result) {
    case 'ok':
    case 'created':
    case 'stream':
      return 'json';
    case 'noContent':
      return 'none';
    case 'redirect':
      return 'redirect';
    case 'text':
      return 'text';
    default:
      return 'response';
  }
}

function outputType(route: Route): string {
  switch (route.result) {
    case 'ok':
    case 'created':
    case 'stream': {
      if (route.shape !== null) return outputNames({ ...route, shape: route.shape }).json;
      if (!route.output) return 'unknown';
      const json = jsonRowType(route.output.resource, route.include);
      if (route.list) return `${route.list.paging === 'offset' ? 'OffsetPage' : 'ListPage'}<${json}>`;
      return route.output.array ? (route.include.length > 0 ? `(${json})[]` : `${json}[]`) : json;
    }
    case 'noContent':
      return 'void';
    case 'redirect':
      return 'Redirect';
    case 'text':
      return 'string';
    default:
      return 'Response';
  }
}

/** A tree of route names split at `.`: leaves are routes. */
interface Tree {
  readonly routes: Map<string, Route>;
  readonly children: Map<string, Tree>;
}

function createClientFunction(routes: readonly Route[]): string {
  const root: Tree = { routes: new Map(), children: new Map() };
  for (const route of routes) {
    const parts = route.name.split('.');
    let node = root;
    for (const part of parts.slice(0, -1)) {
      let child = node.children.get(part);
      if (!child) {
        child = { routes: new Map(), children: new Map() };
        node.children.set(part, child);
      }
      node = child;
    }
    node.routes.set(parts[parts.length - 1]!, route);
  }
  const render = (node: Tree, indent: string): string => {
    const members: string[] = [];
    for (const [key, route] of node.routes) {
      // A name that is also a prefix of other routes keeps both: the route under its key, the others under `<key>_`.
      const input = inputTypeName(route.name);
      const optional = route.input.every((f) => !(f.required || f.source === 'path'));
      const doc = [
        route.summary ? docText(route.summary) : `${route.method} ${route.path}`,
        `\`${route.method} ${route.path}\`${route.middleware.includes('token') ? (route.tokenScheme !== null && route.tokenScheme !== 'Bearer' ? ` — takes a token (\`Authorization: ${route.tokenScheme}\`)` : ' — needs a bearer token') : ''}.`,
        '@throws {ApiError} for any answer that is not a success.',
      ];
      members.push(
        `${indent}/**\n${doc.map((l) => `${indent} * ${l}`).join('\n')}\n${indent} */\n` +
          `${indent}${propertyName(key)}: (input: ${input}${optional ? ` = {} as ${input}` : ''}, init?: CallOptions): Promise<${outputType(route)}> =>\n` +
          `${indent}  send(\n${indent}    ${specLiteral(route)},\n${indent}    input, init,\n${indent}  ) as Promise<${outputType(route)}>,`,
      );
    }
    for (const [key, child] of node.children) {
      const name = node.routes.has(key) ? `${key}_` : key;
      members.push(`${indent}${propertyName(name)}: {\n${render(child, `${indent}  `)}\n${indent}},`);
    }
    return members.join('\n');
  };
  return `/**
 * A client of the API at \`options.baseUrl\`: one method per route, keyed by
 * route name (\`client.notes.create(input)\`).
 * @param options where and how to call; see {@link ClientOptions}.
 * @example
 *   const api = createClient({ baseUrl: 'http://localhost:3000', token: process.env.API_TOKEN });
 */
export function createClient(options: ClientOptions) {
  const send = sender(options);
  return {
${render(root, '    ')}
  };
}

/** The client {@link createClient} returns. */
export type Client = ReturnType<typeof createClient>;`;
}
