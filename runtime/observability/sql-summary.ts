/**
 * What a span says about a SQL statement (docs/observability.md "SQL
 * statements"): its text with every value left out, its operation and the
 * table it works on.
 *
 * Statements are sent with placeholders (`$1`), so their values never reach
 * the text; literals written into the SQL itself (`limit 20`, `'pending'`)
 * are replaced by `?` all the same, as the OpenTelemetry database
 * conventions ask. The same few texts come back all the time, so summaries
 * are kept (a bounded cache).
 */

/** A statement as traced. */
export interface SqlSummary {
  /** The text with literals replaced by `?`, runs of white space as one space. */
  readonly text: string;
  /** The first keyword, upper case: `SELECT`, `INSERT`, `UPDATE`, `DELETE`, … (after a `WITH` clause: the main statement's). */
  readonly operation: string;
  /** The main table, as written (schema-qualified when it was), or `undefined` when none is apparent. */
  readonly table: string | undefined;
}

const MAX_CACHED = 1000;
const cache = new Map<string, SqlSummary>();

/** Summarize `sql` (see the module doc). Never throws. */
export function summarizeSql(sql: string): SqlSummary {
  const cached = cache.get(sql);
  if (cached !== undefined) return cached;
  const text = withoutLiterals(sql).replace(/\s+/g, ' ').trim();
  const summary: SqlSummary = { text, ...operationAndTable(text) };
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(sql, summary);
  return summary;
}

/**
 * `sql` with string literals (`'…'`, `E'…'`, dollar-quoted `$$…$$`) and
 * numbers replaced by `?`; comments kept, identifiers (`"…"`, `t1`) and
 * placeholders (`$1`) untouched.
 */
export function withoutLiterals(sql: string): string {
  return sql.replace(
    /("(?:[^"]|"")*")|(\$\d+)|([Ee]?'(?:[^']|'')*'|\$([A-Za-z_]*)\$[\s\S]*?\$\4\$)|([A-Za-z_][\w$]*)|(?<![\w.$])\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\b/g,
    (match, quoted?: string, placeholder?: string, literal?: string, _tag?: string, word?: string) =>
      quoted ?? placeholder ?? (literal !== undefined ? '?' : (word ?? (match === '' ? match : '?'))),
  );
}

const KEYWORDS = new Set([
  'select',
  'insert',
  'update',
  'delete',
  'merge',
  'values',
  'create',
  'alter',
  'drop',
  'truncate',
  'copy',
  'call',
]);

function operationAndTable(text: string): Omit<SqlSummary, 'text'> {
  const words =
    text.match(/"(?:[^"]|"")*"(?:\."(?:[^"]|"")*"|\.[A-Za-z_][\w$]*)?|[A-Za-z_][\w$]*(?:\.[A-Za-z_][\w$]*|\."(?:[^"]|"")*")?|[()]/g) ?? [];
  let index = 0;
  let depth = 0;
  // After `with … as (…)`, the main statement is the first keyword at depth 0.
  if (words[0]?.toLowerCase() === 'with') {
    for (index = 1; index < words.length; index++) {
      const w = words[index]!;
      if (w === '(') depth++;
      else if (w === ')') depth--;
      else if (depth === 0 && KEYWORDS.has(w.toLowerCase())) break;
    }
  }
  const first = words[index];
  if (first === undefined) return { operation: '', table: undefined };
  const operation = first.toUpperCase();
  const after = (keyword: string): string | undefined => {
    let d = 0;
    for (let i = index + 1; i < words.length - 1; i++) {
      const w = words[i]!;
      if (w === '(') d++;
      else if (w === ')') d--;
      else if (d === 0 && w.toLowerCase() === keyword) {
        const next = words[i + 1]!;
        // `from (select …)` and `from some_function(…)` name no table; `into t (columns)` does.
        return next === '(' || (keyword === 'from' && words[i + 2] === '(') ? undefined : unquote(next);
      }
    }
    return undefined;
  };
  switch (operation) {
    case 'SELECT':
    case 'DELETE':
      return { operation, table: after('from') };
    case 'INSERT':
      return { operation, table: after('into') };
    case 'UPDATE': {
      const next = words[index + 1];
      return {
        operation,
        table: next === undefined || next === '(' ? undefined : unquote(next.toLowerCase() === 'only' ? (words[index + 2] ?? '') : next),
      };
    }
    default:
      return { operation, table: undefined };
  }
}

/** `"notes"` → `notes`, `"public"."notes"` → `public.notes`; unquoted names as written. */
function unquote(name: string): string | undefined {
  if (name === '') return undefined;
  return name.replace(/"((?:[^"]|"")*)"/g, (_m, inner: string) => inner.replaceAll('""', '"'));
}
