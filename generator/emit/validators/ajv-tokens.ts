/**
 * The tokens of a line of ajv's standalone code, and the spacing the
 * TypeScript formatter gives them, for `format-ajv.ts`, without loading
 * TypeScript.
 *
 * ajv writes a small part of JavaScript: declarations, `if`/`else`/`for`
 * blocks, calls, member accesses, object and array literals, arrow
 * functions, the usual operators, string, number and regular expression
 * literals. {@link ruleGaps} spaces those as the formatter does (a space
 * around binary operators, after commas, keywords and object-literal
 * colons, inside non-empty braces; none inside parentheses and brackets,
 * after unary operators, before a call's parenthesis); for anything else
 * it answers null and `format-ajv.ts` asks the formatter.
 * `test/generator/ajv-format.test.ts` checks both give the same text.
 */

/** A token: its text, its kind and where it is in the line. */
export interface Token {
  readonly text: string;
  /** `name` (identifier or keyword), `string`, `number`, `regex`, or `punct`. */
  readonly kind: 'name' | 'string' | 'number' | 'regex' | 'punct';
  readonly start: number;
  readonly end: number;
}

/** Words that are not plain names to the formatter (their text is part of a line's shape). */
export const KEYWORDS = new Set([
  ...'break case catch class const continue debugger default delete do else export extends false finally'.split(' '),
  ...'for function if import in instanceof let new null of return super switch this throw true try typeof'.split(' '),
  ...'undefined var void while with yield async await get set static type enum as from'.split(' '),
]);

/** Punctuators, longest first. */
const PUNCTUATORS = [
  ...'>>>= ... === !== **= <<= >>= >>> &&= ||= ??= => == != <= >= && || ?? ?. ++ -- += -= *= /= %= &= |='.split(' '),
  ...'^= ** << >> { } ( ) [ ] ; , . < > + - * / % & | ^ ! ~ ? : ='.split(' '),
];

/** Words after which an expression starts (so `/` there starts a regular expression, `-` is unary). */
const EXPRESSION_KEYWORDS = new Set('return typeof instanceof in of new delete void throw case do else await yield'.split(' '));

/** Whether the token ends a value (an operand): after it, `/` divides and `-` is binary. */
function endsValue(token: Token | undefined, afterDot: boolean): boolean {
  if (token === undefined) return false;
  if (token.kind === 'name') return afterDot || !EXPRESSION_KEYWORDS.has(token.text);
  if (token.kind === 'punct') return token.text === ')' || token.text === ']' || token.text === '}';
  return true;
}

/** The punctuators by their first character, longest first. */
const PUNCTUATORS_BY_CHAR = new Map<string, string[]>();
for (const p of PUNCTUATORS) PUNCTUATORS_BY_CHAR.set(p[0]!, [...(PUNCTUATORS_BY_CHAR.get(p[0]!) ?? []), p]);

/** Whether the character code is a letter, `_` or `$` (`digits`: or a digit). */
function isNameChar(c: number, digits: boolean): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36 || (digits && c >= 48 && c <= 57);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * The tokens of `text` (one line), or null when it holds anything else
 * than tokens and spaces: a comment, a template literal, a character the
 * scanner does not know.
 */
export function scanLine(text: string): Token[] | null {
  const tokens: Token[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const code = text.charCodeAt(i);
    if (code === 32 || code === 9) {
      i++;
      continue;
    }
    const c = text[i]!;
    const start = i;
    if (isNameChar(code, false)) {
      i++;
      while (i < n && isNameChar(text.charCodeAt(i), true)) i++;
      tokens.push({ text: text.slice(start, i), kind: 'name', start, end: i });
    } else if (isDigit(code) || (c === '.' && isDigit(text.charCodeAt(i + 1)))) {
      i++;
      while (i < n && (isNameChar(text.charCodeAt(i), true) || text[i] === '.')) i++;
      tokens.push({ text: text.slice(start, i), kind: 'number', start, end: i });
    } else if (c === '"' || c === "'") {
      i++;
      while (i < n && text[i] !== c) i += text[i] === '\\' ? 2 : 1;
      if (i >= n) return null;
      i++;
      tokens.push({ text: text.slice(start, i), kind: 'string', start, end: i });
    } else if (c === '`') return null;
    else if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) return null;
    else if (c === '/' && !endsValue(tokens[tokens.length - 1], tokens[tokens.length - 2]?.text === '.')) {
      // A regular expression literal: up to the `/` outside a character class, then its flags.
      let inClass = false;
      i++;
      for (; i < n; i++) {
        const d = text[i]!;
        if (d === '\\') i++;
        else if (d === '[') inClass = true;
        else if (d === ']') inClass = false;
        else if (d === '/' && !inClass) break;
      }
      if (i >= n) return null;
      i++;
      while (i < n && text.charCodeAt(i) >= 97 && text.charCodeAt(i) <= 122) i++;
      tokens.push({ text: text.slice(start, i), kind: 'regex', start, end: i });
    } else {
      const punctuator = PUNCTUATORS_BY_CHAR.get(c)?.find(
        (p) => (p.length === 1 || text.startsWith(p, i)) && !(p === '?.' && isDigit(text.charCodeAt(i + 2))),
      );
      if (punctuator === undefined) return null;
      i += punctuator.length;
      tokens.push({ text: punctuator, kind: 'punct', start, end: i });
    }
  }
  return tokens;
}

/** Binary operators: a space on both sides. */
const BINARY = new Set([
  ...'= == === != !== < > <= >= + - * / % ** & | ^ << >> >>> && || ?? += -= *= /= %= **= &= |= ^= <<= >>='.split(' '),
  ...'>>>= &&= ||= ??= => instanceof in of'.split(' '),
]);

/** Keywords followed by a space before `(`. */
const SPACED_BEFORE_PAREN = new Set('if for while switch catch return typeof new else await void delete throw in of instanceof'.split(' '));

/** Keywords that are values (`x === null`, `this[k]`). */
const VALUE_KEYWORDS = new Set(['true', 'false', 'null', 'undefined', 'this', 'super']);

/** What a token is in its line, once its neighbours are known. */
type Role = 'binary' | 'prefix' | 'postfix' | 'ternary' | 'colon' | 'keyword' | 'value' | 'other';

/**
 * The whitespace before each token of a line as the TypeScript formatter
 * leaves it (`''` before the first), or null when the line holds something
 * these rules do not cover (see the module comment).
 */
export function ruleGaps(tokens: readonly Token[]): string[] | null {
  const roles: Role[] = [];
  // Open brackets on this line, each with the number of `?` waiting for their `:`.
  const stack: { open: string; ternaries: number }[] = [];
  let outer = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const afterDot = i > 0 && (tokens[i - 1]!.text === '.' || tokens[i - 1]!.text === '?.');
    const valueBefore = endsValue(tokens[i - 1], i > 1 && (tokens[i - 2]!.text === '.' || tokens[i - 2]!.text === '?.'));
    if (t.kind !== 'punct') {
      const keyword = t.kind === 'name' && !afterDot && KEYWORDS.has(t.text) && !VALUE_KEYWORDS.has(t.text);
      roles.push(keyword ? (BINARY.has(t.text) ? 'binary' : 'keyword') : 'value');
      if (t.kind === 'name' && !afterDot && (t.text === 'case' || t.text === 'default' || t.text === 'class' || t.text === 'function'))
        if (t.text !== 'function' || tokens[i + 1]?.kind !== 'name') return null;
      continue;
    }
    const top = stack[stack.length - 1];
    switch (t.text) {
      case '(':
      case '[':
      case '{':
        stack.push({ open: t.text, ternaries: 0 });
        roles.push('other');
        break;
      case ')':
      case ']':
      case '}':
        if (top !== undefined) {
          if (top.ternaries !== 0 || top.open !== { ')': '(', ']': '[', '}': '{' }[t.text]) return null;
          stack.pop();
        }
        roles.push('other');
        break;
      case '?':
        if (top) top.ternaries++;
        else outer++;
        roles.push('ternary');
        break;
      case ':':
        if (top ? top.ternaries > 0 : outer > 0) {
          if (top) top.ternaries--;
          else outer--;
          roles.push('ternary');
        } else if (top?.open === '{') roles.push('colon');
        else return null;
        break;
      case '!':
      case '~':
        roles.push('prefix');
        break;
      case '++':
      case '--':
        roles.push(valueBefore ? 'postfix' : 'prefix');
        break;
      case '+':
      case '-':
        roles.push(valueBefore ? 'binary' : 'prefix');
        break;
      case '...':
        roles.push('prefix');
        break;
      case ',':
      case ';':
      case '.':
      case '?.':
        roles.push('other');
        break;
      default:
        if (!BINARY.has(t.text)) return null;
        roles.push('binary');
    }
  }

  const gaps: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (i === 0) {
      gaps.push('');
      continue;
    }
    const gap = gapBetween(tokens[i - 1]!, roles[i - 1]!, tokens[i]!, roles[i]!);
    if (gap === null) return null;
    gaps.push(gap);
  }
  return gaps;
}

/** The whitespace between two neighbouring tokens, or null when no rule says. */
function gapBetween(p: Token, pRole: Role, t: Token, tRole: Role): string | null {
  // What comes before the token decides first.
  if (t.text === ',' || t.text === ';' || t.text === ')' || t.text === ']' || t.text === '.' || t.text === '?.') {
    if (t.text === ';' && p.text === ';') return null;
    return '';
  }
  if (tRole === 'postfix') return '';
  if (tRole === 'colon') return '';
  if (p.text === '.' || p.text === '?.' || p.text === '(' || p.text === '[' || pRole === 'prefix') return '';
  if (p.text === '{') return t.text === '}' ? '' : ' ';
  if (t.text === '}') return ' ';
  if (tRole === 'binary' || tRole === 'ternary' || pRole === 'binary' || pRole === 'ternary') return ' ';
  if (p.text === ',' || p.text === ';' || pRole === 'colon') return ' ';
  if (t.text === '(') {
    if (pRole === 'keyword') return SPACED_BEFORE_PAREN.has(p.text) ? ' ' : null;
    return p.kind === 'name' || p.text === ')' || p.text === ']' ? '' : null;
  }
  if (t.text === '[')
    return pRole === 'keyword' ? ' ' : p.kind === 'name' || p.kind === 'string' || p.text === ')' || p.text === ']' ? '' : null;
  if (t.text === '{') return p.text === ')' || p.text === 'else' || p.text === '=>' ? ' ' : null;
  if (p.kind === 'name' && t.kind !== 'punct') return ' ';
  if (tRole === 'prefix' && (pRole === 'keyword' || p.kind === 'name')) return ' ';
  if (p.text === ')' && t.kind === 'name') return ' ';
  if (p.text === '}' && t.kind === 'name') return ' ';
  return null;
}
