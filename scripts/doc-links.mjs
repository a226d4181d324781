// Links of the Markdown the package ships (package.json `files`: docs/,
// README.md) that point at files it does not ship, or at nothing: read from
// node_modules/bindery/docs/ (where a project made by `bindery new` sends its
// reader), such a link leads nowhere. Part of scripts/check-package.mjs
// (docs/package.md "The package check").
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** Files npm packs whatever `files` says. */
const ALWAYS_PACKED = ['package.json', 'README.md', 'LICENSE', 'LICENSE.md'];

/**
 * README.md is the repository's front page as well as the package's: it may
 * link to the repository's other Markdown documents (ARCHITECTURE.md,
 * CONTRIBUTING.md, the examples' and plugins' READMEs), which a reader of
 * the package finds in the repository.
 */
const FRONT_PAGE = 'README.md';

const posix = (path) => path.split(sep).join('/');

function* markdownUnder(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const path = join(dir, e.name);
    if (e.isDirectory()) yield* markdownUnder(path);
    else if (e.name.endsWith('.md')) yield path;
  }
}

/** `[text](target)` links outside fenced code blocks and inline code, with their line: `{ line, target }`. */
export function markdownLinks(text) {
  const links = [];
  let fenced = false;
  text.split('\n').forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) return;
    const code = line.replace(/`[^`]*`/g, (m) => ' '.repeat(m.length));
    for (const m of code.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ line: i + 1, target: m[1] });
  });
  return links;
}

/**
 * One problem line per link of a shipped Markdown file (under a `files`
 * folder, or README.md) whose target is not shipped or does not exist:
 * `docs/schema-language.md:30: links to ../schema/notes.yaml, which the package does not ship`.
 * @param root the package folder; `files` its package.json `files`.
 */
export function docLinkProblems(root, files) {
  const shipped = [...ALWAYS_PACKED, ...files].map((f) => posix(f).replace(/\/$/, ''));
  const isShipped = (rel) => shipped.some((f) => rel === f || rel.startsWith(`${f}/`));
  const pages = [];
  for (const f of files) {
    const path = join(root, f);
    if (!existsSync(path)) continue;
    if (statSync(path).isDirectory()) pages.push(...markdownUnder(path));
    else if (f.endsWith('.md')) pages.push(path);
  }
  if (existsSync(join(root, FRONT_PAGE)) && !pages.includes(join(root, FRONT_PAGE))) pages.push(join(root, FRONT_PAGE));
  const problems = [];
  for (const page of pages.sort()) {
    const from = posix(relative(root, page));
    for (const { line, target } of markdownLinks(readFileSync(page, 'utf8'))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#') || target.startsWith('/')) continue;
      const path = decodeURI(target.split('#')[0]);
      const abs = resolve(dirname(page), path);
      const rel = posix(relative(root, abs));
      const where = `${from}:${line}: links to ${target}`;
      if (rel.startsWith('..')) problems.push(`${where}, outside the package`);
      else if (!existsSync(abs)) problems.push(`${where}, which does not exist`);
      else if (!isShipped(rel) && !(from === FRONT_PAGE && rel.endsWith('.md')))
        problems.push(`${where}, which the package does not ship (package.json "files": ${files.join(', ')})`);
    }
  }
  return problems;
}
