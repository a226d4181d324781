/**
 * Formatting ajv's standalone code the way the TypeScript formatter does
 * (`formatTs`), in time linear in the code's size.
 *
 * ajv writes one statement per line (`code.lines`), unindented and without
 * spaces around most tokens; the formatter only changes the whitespace
 * between tokens and the indentation. Lines of the same token shape (token
 * kinds, with names, strings and numbers abstracted away) are formatted the
 * same way, and a schema has few shapes however many routes it has. Each
 * shape's spacing comes from `ruleGaps` (`ajv-tokens.ts`: the formatter's
 * rules for the part of JavaScript ajv writes, no TypeScript loaded); for
 * a shape those rules do not cover, the formatter runs on a small sample —
 * the top-level statements that bring such a shape — and every line is
 * then rebuilt from its shape's spacing, indented by its brace depth. The
 * JSON schema constants (`const <route>_schema = {…};`) are re-spaced
 * directly.
 *
 * Whenever the code or the sample disagrees with these assumptions (a
 * comment, a template literal, a line break or indentation the formatter
 * changed), the whole code is formatted by the TypeScript formatter
 * instead: slower, same result.
 */
import { KEYWORDS, ruleGaps, scanLine, type Token } from './ajv-tokens.js';
import { formatTs, loadTsMorph } from '../ts-source.js';

type TsSyntaxKind = import('ts-morph').ts.SyntaxKind;

interface Line {
  /** The line as ajv wrote it, trimmed. */
  readonly text: string;
  readonly tokens: readonly string[];
  /** The tokens as scanned (for `ruleGaps`). */
  readonly scanned: readonly Token[];
  readonly shape: string;
  /** Net change of the bracket depth after this line. */
  readonly delta: number;
  /** The line starts with a closing bracket. */
  readonly closes: boolean;
  /** Indexes in `tokens` of the identifiers (not property names after `.`). */
  readonly identifiers: readonly number[];
}

/**
 * A formatted line, or its template when it holds identifiers that
 * {@link formatAjvTemplate}'s `renamed` selects (text at even indexes, the
 * identifiers at odd ones, as {@link identifierTemplate} cuts it).
 */
type FormattedLine = string | readonly string[];

const OPEN = new Set(['{', '(', '[']);
const CLOSE = new Set(['}', ')', ']']);
/** A JSON schema constant: `const schema12 = {…};` or, renamed, `const <route>_schema = {…};` (ajv writes them with `JSON.stringify`). */
const SCHEMA_LINE = /^const (?:[\w$]+_)?schema\d* = (\{.*\});$/;

/**
 * What {@link formatAjvCode} learnt from earlier calls: each line shape's
 * spacing. Passing the same one to the calls on successive pieces of code
 * sends each shape through the formatter once, as one call on the whole
 * code would, while only one piece's lines are held at a time.
 */
export interface AjvFormatMemory {
  /** The whitespace before each token of a shape, from `ruleGaps` or the formatter. */
  readonly spacing: Map<string, readonly string[]>;
  /** Space the shapes `ruleGaps` covers by its rules (else every shape goes through the formatter: the tests compare both). */
  readonly rules: boolean;
}

/** An empty {@link AjvFormatMemory}; `rules: false` sends every shape through the TypeScript formatter. */
export function ajvFormatMemory(rules = true): AjvFormatMemory {
  return { spacing: new Map(), rules };
}

/**
 * The formatted code (two-space indentation, the TypeScript formatter's
 * spacing), without a final newline. `memory` carries what earlier calls
 * learnt (see {@link AjvFormatMemory}); a fresh one by default.
 */
export function formatAjvCode(code: string, memory: AjvFormatMemory = ajvFormatMemory()): string {
  const lines = formatLines(code, memory, () => false);
  return lines === null ? formatTs(code).replace(/\n+$/, '') : (lines as string[]).join('\n');
}

/**
 * {@link formatAjvCode} and {@link identifierTemplate} in one pass: the
 * formatted code's lines, each a string or (when it holds identifiers that
 * `renamed` selects) a line template. Cut a range of lines into one template
 * with {@link joinTemplates}. The lines are those of `formatAjvCode`; the
 * identifiers those `identifierTemplate` finds on its text.
 */
export function formatAjvTemplate(code: string, memory: AjvFormatMemory, renamed: (name: string) => boolean): FormattedLine[] {
  return (
    formatLines(code, memory, renamed) ??
    formatTs(code)
      .replace(/\n+$/, '')
      .split('\n')
      .map((line) => {
        const template = identifierTemplate(line, renamed);
        return template.length === 1 ? template[0]! : template;
      })
  );
}

/** `lines` (of {@link formatAjvTemplate}) joined by line breaks into one template of {@link identifierTemplate}'s form. */
export function joinTemplates(lines: readonly FormattedLine[]): string[] {
  const out: string[] = [''];
  lines.forEach((line, i) => {
    const head = i === 0 ? '' : '\n';
    if (typeof line === 'string') out[out.length - 1] += head + line;
    else {
      out[out.length - 1] += head + line[0]!;
      for (let k = 1; k < line.length; k++) out.push(line[k]!);
    }
  });
  return out;
}

/** The lines of {@link formatAjvTemplate}, or null when the code must go through the formatter whole. */
function formatLines(code: string, memory: AjvFormatMemory, renamed: (name: string) => boolean): FormattedLine[] | null {
  const raw = code.split('\n');
  const lines: (Line | string | null)[] = [];
  // Many lines repeat verbatim (`errors++;`, `}`): tokenized once.
  const known = new Map<string, Line>();
  for (const text of raw) {
    const trimmed = text.trim();
    if (trimmed === '') lines.push(null);
    else if (SCHEMA_LINE.test(trimmed)) lines.push(trimmed);
    else {
      const line = known.get(trimmed) ?? tokenize(trimmed);
      if (!line) return null;
      known.set(trimmed, line);
      lines.push(line);
      if (memory.rules && !memory.spacing.has(line.shape)) {
        const gaps = ruleGaps(line.scanned);
        if (gaps !== null) memory.spacing.set(line.shape, gaps);
      }
    }
  }

  // The sample: top-level statements (line ranges starting at depth 0) with a new shape.
  // Shapes learnt here join `memory` only once the whole sample checked out.
  const spacing = new Map<string, readonly string[]>();
  const sample: number[] = [];
  const seen = new Set<string>(memory.spacing.keys());
  let depth = 0;
  let start = 0;
  let fresh = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (depth === 0) {
      start = i;
      fresh = false;
    }
    if (line !== null && typeof line !== 'string') {
      if (!seen.has(line.shape)) {
        seen.add(line.shape);
        fresh = true;
      }
      depth += line.delta;
      if (depth < 0) return null;
    }
    if (depth === 0 && fresh) for (let j = start; j <= i; j++) sample.push(j);
  }
  if (depth !== 0) return null;

  const sampleText = sample
    .map((i) => {
      const l = lines[i]!;
      return l === null ? '' : typeof l === 'string' ? l : l.text;
    })
    .join('\n');
  const formatted = sample.length === 0 ? [] : formatTs(sampleText).replace(/\n+$/, '').split('\n');
  if (formatted.length !== sample.length) return null;
  depth = 0;
  for (let k = 0; k < sample.length; k++) {
    const line = lines[sample[k]!]!;
    if (line === null || typeof line === 'string') continue;
    const text = formatted[k]!;
    const indent = text.length - text.trimStart().length;
    if (indent !== 2 * (depth - (line.closes ? 1 : 0))) return null;
    depth += line.delta;
    const gaps = gapsOf(text.trim(), line.tokens);
    if (!gaps) return null;
    spacing.set(line.shape, gaps);
  }
  for (const [shape, gaps] of spacing) memory.spacing.set(shape, gaps);

  const out: FormattedLine[] = [];
  const built = new Map<Line, FormattedLine>();
  const indents: string[] = [];
  const indent = (n: number): string => (indents[n] ??= '  '.repeat(n));
  depth = 0;
  for (const line of lines) {
    if (line === null) {
      out.push('');
      continue;
    }
    if (typeof line === 'string') {
      const spaced = spaceSchemaLine(line);
      const name = /^const ([\w$]+)/.exec(spaced)![1]!;
      out.push(renamed(name) ? [`${indent(depth)}const `, name, spaced.slice(6 + name.length)] : indent(depth) + spaced);
      continue;
    }
    let text = built.get(line);
    if (text === undefined) {
      text = buildLine(line, memory.spacing.get(line.shape)!, renamed);
      built.set(line, text);
    }
    const head = indent(depth - (line.closes ? 1 : 0));
    out.push(typeof text === 'string' ? head + text : [head + text[0]!, ...text.slice(1)]);
    depth += line.delta;
  }
  return out;
}

/** A token line from its shape's spacing: its text, or its template when `renamed` selects one of its identifiers. */
function buildLine(line: Line, gaps: readonly string[], renamed: (name: string) => boolean): FormattedLine {
  const parts: string[] = [''];
  let next = 0;
  for (let t = 0; t < line.tokens.length; t++) {
    const token = line.tokens[t]!;
    parts[parts.length - 1] += gaps[t]!;
    if (line.identifiers[next] === t) {
      next++;
      if (renamed(token)) {
        parts.push(token, '');
        continue;
      }
    }
    parts[parts.length - 1] += token;
  }
  return parts.length === 1 ? parts[0]! : parts;
}

/** The tokens of one line, or null when it holds anything but tokens and spaces (a comment, a template literal). */
function tokenize(text: string): Line | null {
  const scanned = scanLine(text);
  if (scanned === null) return null;
  const tokens: string[] = [];
  const kinds: string[] = [];
  const identifiers: number[] = [];
  let delta = 0;
  scanned.forEach((token, i) => {
    const afterDot = i > 0 && (scanned[i - 1]!.text === '.' || scanned[i - 1]!.text === '?.');
    const name = token.kind === 'name' && (afterDot || !KEYWORDS.has(token.text));
    if (name && !afterDot) identifiers.push(i);
    tokens.push(token.text);
    kinds.push(name ? 'n' : token.kind === 'name' || token.kind === 'punct' ? token.text : token.kind);
    if (OPEN.has(token.text)) delta++;
    else if (CLOSE.has(token.text)) delta--;
  });
  return { text, tokens, scanned, shape: kinds.join(' '), delta, closes: tokens.length > 0 && CLOSE.has(tokens[0]!), identifiers };
}

/** The whitespace before each token of a formatted line whose tokens must equal `tokens`; null when they do not. */
function gapsOf(text: string, tokens: readonly string[]): string[] | null {
  const scanned = scanLine(text);
  if (scanned === null || scanned.length !== tokens.length) return null;
  const gaps: string[] = [];
  let end = 0;
  for (let i = 0; i < scanned.length; i++) {
    if (scanned[i]!.text !== tokens[i]) return null;
    gaps.push(text.slice(end, scanned[i]!.start));
    end = scanned[i]!.end;
  }
  return end === text.length ? gaps : null;
}

/** `const <route>_schema = <JSON>;` spaced as the formatter does: `{ "a": 1, "b": [1, 2] }`, `{}` and `[]` kept. */
function spaceSchemaLine(line: string): string {
  const match = SCHEMA_LINE.exec(line)!;
  const json = match[1]!;
  const out: string[] = [line.slice(0, line.length - json.length - 1)];
  // Runs of characters that keep their spacing are copied whole.
  let copied = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json[i]!;
    if (c === '"') {
      let j = i + 1;
      while (json[j] !== '"') j += json[j] === '\\' ? 2 : 1;
      i = j;
      continue;
    }
    if (c !== '{' && c !== '}' && c !== ':' && c !== ',') continue;
    out.push(json.slice(copied, i));
    copied = i + 1;
    if (c === '{') out.push(json[i + 1] === '}' ? '{' : '{ ');
    else if (c === '}') out.push(json[i - 1] === '{' ? '}' : ' }');
    else out.push(`${c} `);
  }
  out.push(json.slice(copied), ';');
  return out.join('');
}

/**
 * `code` cut around the identifier tokens `renamed` selects (string
 * literals, regular expressions and property names after `.` are never
 * selected): text at even indexes, the identifiers at odd ones. Scanning is the costly part; a template is filled any number of
 * times with {@link fillTemplate}.
 */
export function identifierTemplate(code: string, renamed: (name: string) => boolean): string[] {
  const { ts } = loadTsMorph();
  const { SyntaxKind } = ts;
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard);
  scanner.setText(code);
  const out: string[] = [];
  let copied = 0;
  let previous: TsSyntaxKind | undefined;
  // A `/` starts a regular expression where ajv writes them: after `=`, `(` and `,`.
  const regexAllowed = (kind: TsSyntaxKind | undefined) =>
    kind === undefined || kind === SyntaxKind.EqualsToken || kind === SyntaxKind.OpenParenToken || kind === SyntaxKind.CommaToken;
  for (let kind = scanner.scan(); kind !== SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === SyntaxKind.WhitespaceTrivia || kind === SyntaxKind.NewLineTrivia) continue;
    if ((kind === SyntaxKind.SlashToken || kind === SyntaxKind.SlashEqualsToken) && regexAllowed(previous))
      kind = scanner.reScanSlashToken();
    if (kind === SyntaxKind.Identifier && previous !== SyntaxKind.DotToken) {
      const name = scanner.getTokenText();
      if (renamed(name)) {
        out.push(code.slice(copied, scanner.getTokenStart()), name);
        copied = scanner.getTokenEnd();
      }
    }
    previous = kind;
  }
  out.push(code.slice(copied));
  return out;
}

/** A template of {@link identifierTemplate} with each identifier replaced by `rename`'s name for it (calls in order of appearance; kept when undefined). */
export function fillTemplate(template: readonly string[], rename: (name: string) => string | undefined): string {
  const out = template.slice();
  for (let i = 1; i < out.length; i += 2) out[i] = rename(out[i]!) ?? out[i]!;
  return out.join('');
}
