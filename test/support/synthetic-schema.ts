/**
 * A synthetic bindery schema of any size, for the generator's scale test and
 * benchmark (`npm run bench -- generator`; docs/benchmarks.md).
 *
 * It writes `resources` resources and `routes` routes spread over one YAML
 * file per ten resources, covering every feature of the schema language:
 * every field type (and lists), every field option (primary keys, identity
 * and uuid keys, defaults of every kind, nullable, hidden, `json` names,
 * `omitEmpty`, `max`, `unique` and `unique: live`, short and long
 * references, descriptions), indexes, timestamps, soft delete, tracked
 * resources with `except`/`redact`/`reveal`, groups with middleware,
 * abilities, every result kind, every binding source (JSON, form, both,
 * query, path, header, multipart files) and every validation rule. Rule
 * parameters of the create and update routes vary with the resource, so
 * their validators are all different, as in a real project; list and upload
 * routes repeat theirs (which the generator compiles once).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The size of a synthetic schema. */
export interface SyntheticSize {
  /** Number of resources (at least 1). */
  readonly resources: number;
  /** Number of routes (at least 1); spread evenly over the resources. */
  readonly routes: number;
}

/** Resources per schema file. */
const PER_FILE = 10;

/**
 * The schema files, by file name (`00-groups.yaml`, `01-res0001.yaml`, …),
 * for a project's `schema/` folder. Deterministic: the same size gives the
 * same text.
 */
export function syntheticSchema(size: SyntheticSize): Map<string, string> {
  const files = new Map<string, string>();
  files.set(
    '00-groups.yaml',
    [
      'info:',
      '  title: Synthetic API',
      '  version: 1.0.0',
      `  description: ${size.resources} resources and ${size.routes} routes.`,
      '',
      'groups:',
      '  web:',
      '    description: Pages and forms.',
      '    middleware: [session, csrf]',
      '  api:',
      '    middleware: [token]',
      '',
    ].join('\n'),
  );
  const perResource = routeCounts(size);
  for (let first = 0; first < size.resources; first += PER_FILE) {
    const lines: string[] = ['resources:'];
    const routeLines: string[] = ['routes:'];
    for (let i = first; i < Math.min(first + PER_FILE, size.resources); i++) {
      lines.push(...resourceYaml(i));
      for (let r = 0; r < perResource[i]!; r++) routeLines.push(...routeYaml(i, r));
    }
    files.set(
      `${String(first / PER_FILE + 1).padStart(2, '0')}-${tableName(first)}.yaml`,
      [...lines, '', ...(routeLines.length > 1 ? routeLines : []), ''].join('\n'),
    );
  }
  return files;
}

/** Write {@link syntheticSchema} into `dir` (created when missing). */
export async function writeSyntheticSchema(dir: string, size: SyntheticSize): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const [name, text] of syntheticSchema(size)) await writeFile(join(dir, name), text);
}

function routeCounts(size: SyntheticSize): number[] {
  const base = Math.floor(size.routes / size.resources);
  const extra = size.routes % size.resources;
  return Array.from({ length: size.resources }, (_, i) => base + (i < extra ? 1 : 0));
}

const resourceName = (i: number): string => `Res${String(i + 1).padStart(4, '0')}`;
const tableName = (i: number): string => `res${String(i + 1).padStart(4, '0')}`;
const routeBase = (i: number): string => `res${String(i + 1).padStart(4, '0')}`;

function resourceYaml(i: number): string[] {
  const name = resourceName(i);
  const table = tableName(i);
  const soft = i % 3 === 0;
  const tracked = i % 10 === 0;
  const uuidKey = i % 7 === 3;
  const lines = [
    `  ${name}:`,
    `    table: ${table}`,
    `    description: Synthetic resource number ${i + 1}.`,
    ...(i % 2 === 0 ? ['    timestamps: true'] : []),
    ...(soft ? ['    softDelete: true'] : []),
    '    fields:',
    uuidKey
      ? '      id:          { type: uuid, primaryKey: true, generated: true }'
      : '      id:          { type: bigint, primaryKey: true, generated: true }',
    ...(i > 0 && i % 4 === 1 && (i - 1) % 7 !== 3
      ? [`      parent_id:   { type: bigint, nullable: true, references: { to: ${tableName(i - 1)}.id, onDelete: set null } }`]
      : []),
    ...(i > 0 && i % 4 === 2 && (i - 1) % 7 !== 3 ? [`      owner_id:    { type: bigint, references: ${tableName(i - 1)}.id }`] : []),
    `      slug:        { type: string, max: 100, unique: ${soft ? 'live' : 'true'} }`,
    '      title:       { type: string, max: 255, description: The title. }',
    '      body:        { type: text, default: "" }',
    '      status:      { type: string, max: 20, default: draft }',
    '      secret:      { type: string, max: 64, nullable: true, hidden: true }',
    '      views:       { type: integer, default: 0, json: viewCount }',
    '      score:       { type: number, nullable: true }',
    '      big:         { type: bigint, default: 0 }',
    '      active:      { type: boolean, default: true }',
    '      seen_at:     { type: timestamp, nullable: true, omitEmpty: true }',
    '      due_at:      { type: timestamp, default: now }',
    '      ttl:         { type: duration, default: 15m }',
    '      meta:        { type: json, default: { kind: synthetic } }',
    '      ref:         { type: uuid, nullable: true }',
    '      tags:        { type: "string[]", default: [], omitEmpty: true }',
    '      dates:       { type: "timestamp[]", default: [] }',
    '      numbers:     { type: "integer[]", nullable: true }',
    '    indexes:',
    '      - { columns: [status] }',
    `      - { columns: [title, status], unique: ${soft ? 'live' : 'false'} }`,
  ];
  if (tracked) lines.push('    audit:', '      track: true', '      except: [views]', '      redact: [body]', '      reveal: [secret]');
  return lines;
}

/** Route `r` of resource `i`; cycles through the kinds of route so every binding source, result and rule appears. */
function routeYaml(i: number, r: number): string[] {
  const base = routeBase(i);
  const name = resourceName(i);
  const table = tableName(i);
  const kind = r % 8;
  const suffix = r < 8 ? '' : String(Math.floor(r / 8) + 1);
  const path = `/${table}${suffix ? `/v${suffix}` : ''}`;
  const api = i % 2 === 0;
  const group = api ? ['    group: api', `    abilities: [${table}:read]`] : ['    group: web'];
  switch (kind) {
    case 0:
      return [
        `  ${base}.create${suffix}:`,
        '    method: POST',
        `    path: ${path}`,
        ...group,
        `    summary: Create a ${name}.`,
        '    input:',
        `      slug:       { type: string, validate: [required, "max:${100 + i}", alpha_dash] }`,
        `      title:      { type: string, validate: [required, "between:1,${200 + i}"] }`,
        '      status:     { type: string, default: draft, validate: ["in:draft,published,archived"] }',
        '      tags:       { type: "string[]", validate: ["min:1", "max:5", distinct, "each:alpha_num"] }',
        '      notes:      { type: string, nullable: true, validate: ["not_in:spam,junk", "regex:^[^<>]*$"] }',
        '      score:      { type: number, nullable: true, validate: ["between:0,5"] }',
        '      meta:       { type: json, description: Free-form metadata. }',
        '      homepage:   { type: string, validate: [url] }',
        '      email:      { type: string, validate: [email, "max:255"] }',
        '      code:       { type: string, validate: ["size:6", alpha, "ends_with:x,y"] }',
        '      code_check: { type: string, validate: ["same:code"] }',
        '      alias:      { type: string, validate: ["different:slug", alpha_num, "starts_with:doc"] }',
        '      ref:        { type: string, validate: [uuid] }',
        '      seen_at:    { type: timestamp, nullable: true }',
        '      ttl:        { type: duration, default: 15m, validate: ["max:86400000"] }',
        `      big:        { type: bigint, validate: ["min:${1 + (i % 50)}"] }`,
        `    output: ${name}`,
        '    result: created',
        '',
      ];
    case 1:
      return [
        `  ${base}.list${suffix}:`,
        '    method: GET',
        `    path: ${path}`,
        ...group,
        `    summary: List ${name} rows.`,
        '    input:',
        '      status:     { type: "string[]", query: true, validate: ["each:in:draft,published"] }',
        '      limit:      { type: integer, query: limit, default: 20, validate: ["min:1", "max:100"] }',
        '      cursor:     { type: string, query: true, nullable: true }',
        '      since:      { type: timestamp, query: true }',
        '      verbose:    { type: boolean, query: v, default: false }',
        '      request_id: { type: string, header: X-Request-ID }',
        `    output: "${name}[]"`,
        // A list of rows without a page is streamed (docs/http.md "Unbounded answers"); with ok it is a generator warning.
        '    result: stream',
        '',
      ];
    case 2:
      return [
        `  ${base}.show${suffix}:`,
        '    method: GET',
        `    path: ${path}/{id}`,
        ...group,
        '    input:',
        '      id: { type: integer, path: id }',
        `    output: ${name}`,
        '    result: ok',
        '',
      ];
    case 3:
      return [
        `  ${base}.update${suffix}:`,
        '    method: PATCH',
        `    path: ${path}/{id}`,
        ...group,
        `    description: Change a ${name}.`,
        '    input:',
        '      id:       { type: integer, path: true }',
        `      title:    { type: string, validate: ["max:${255 - (i % 100)}"] }`,
        '      password: { type: string, validate: ["min:8", confirmed] }',
        '      password_confirmation: { type: string }',
        '      accept:   { type: boolean, form: accept_terms, validate: [accepted] }',
        '      auth:     { type: string, header: Authorization, validate: [required, "starts_with:Bearer"] }',
        `    output: ${name}`,
        '    result: ok',
        '',
      ];
    case 4:
      return [
        `  ${base}.upload${suffix}:`,
        '    method: POST',
        `    path: ${path}/{id}/files`,
        '    group: web',
        '    summary: Attach files.',
        '    input:',
        '      id:          { type: integer, path: true }',
        '      file:        { type: file, validate: [required, "max:2048"] }',
        '      attachments: { type: "file[]", form: "attachments[]", validate: ["max:3", "each:max:1024"] }',
        '      caption:     { type: string, form: caption_text }',
        '      note:        { type: string, json: note_text }',
        '      both:        { type: string, json: jsonName, form: form_name }',
        '    result: redirect',
        '',
      ];
    case 5:
      return [
        `  ${base}.delete${suffix}:`,
        '    method: DELETE',
        `    path: ${path}/{id}`,
        ...group,
        '    input:',
        '      id: { type: integer, path: id }',
        '    result: noContent',
        '',
      ];
    case 6:
      return [
        `  ${base}.edit${suffix}:`,
        '    method: GET',
        `    path: ${path}/{id}/edit`,
        '    group: web',
        '    input:',
        '      id: { type: integer, path: true }',
        '    result: page',
        '',
      ];
    default:
      return [
        `  ${base}.export${suffix}:`,
        '    method: GET',
        `    path: ${path}/export`,
        ...(r % 16 === 7 ? [] : group),
        ...(r % 16 === 7 ? ['    result: text', ''] : ['    result: custom', '']),
      ];
  }
}
