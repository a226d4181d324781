#!/usr/bin/env node
// The public package check (docs/package.md). Fails (exit 1, one line per
// problem) when:
// - an entry of package.json `exports` points at a missing file (the
//   TypeScript source always; the dist/ files when dist/ exists or --dist);
// - a public file is not reachable: a runtime folder's index.ts that is not
//   an entry and not listed as internal below, or app/plugin/generated code
//   that imports the runtime by a relative path or a `bindery/…` specifier
//   that is not an entry;
// - the declared types do not resolve: a probe project outside the package
//   imports every entry under tsc (against dist/*.d.ts with --dist, or when
//   dist/ exists; against the sources otherwise);
// - an entry exports a name that no consumer (app/, plugins/, generated/,
//   templates/, examples/) uses and docs/package.md "What each entry
//   exports" does not list, or that list names what the entry does not
//   export (checked when docs/package.md has that section);
// - a Markdown file the package ships (docs/, README.md) links to a file the
//   package does not ship, or to nothing (scripts/doc-links.mjs).
//
//   node scripts/check-package.mjs [--dist] [--root <package folder>]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { docLinkProblems } from './doc-links.mjs';

const here = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const rootAt = args.indexOf('--root');
const root = rootAt >= 0 ? resolve(args[rootAt + 1]) : here;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const withDist = args.includes('--dist') || existsSync(join(root, 'dist'));

/** Runtime folders with an index.ts that are deliberately not public (used by the framework itself only). */
const INTERNAL = new Set(pkg.bindery?.internal ?? []);
/** Code that uses bindery the way an app does: it may import only entries. */
const CONSUMERS = ['app', 'generated', 'plugins'];

const problems = [];
const entries = new Map();
for (const [key, target] of Object.entries(pkg.exports ?? {})) {
  if (key === './package.json') continue;
  if (key.includes('*')) {
    problems.push(`exports["${key}"]: a wildcard exposes internals; list each entry`);
    continue;
  }
  if (typeof target !== 'object' || target === null) {
    problems.push(`exports["${key}"]: expected { "bindery-source", "types", "default" }`);
    continue;
  }
  for (const condition of ['bindery-source', 'types', 'default']) {
    if (typeof target[condition] !== 'string') problems.push(`exports["${key}"]: no "${condition}" condition`);
  }
  entries.set(key.slice(2), target);
  const files = [['bindery-source', target['bindery-source']]];
  if (withDist) files.push(['types', target.types], ['default', target.default]);
  for (const [condition, file] of files) {
    if (typeof file === 'string' && !existsSync(join(root, file)))
      problems.push(
        `exports["${key}"].${condition}: ${file} does not exist${condition === 'bindery-source' ? '' : ' (run npm run build)'}`,
      );
  }
}

// Every runtime folder's index.ts is an entry or declared internal.
const entrySources = new Set(
  [...entries.values()]
    .map((t) => t?.['bindery-source'])
    .filter(Boolean)
    .map((f) => resolve(root, f)),
);
function* walk(dir) {
  if (!existsSync(dir)) return;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const path = join(dir, e.name);
    if (e.isDirectory()) yield* walk(path);
    else yield path;
  }
}
const runtimeDir = join(root, 'runtime');
// Files an entry re-exports from (`export … from './x.js'`), transitively.
const reexported = new Set(entrySources);
const pending = [...entrySources];
while (pending.length > 0) {
  const file = pending.pop();
  if (!existsSync(file)) continue;
  for (const [, spec] of readFileSync(file, 'utf8').matchAll(/^export\s[^;]*?from\s+'(\.[^']+)'/gms)) {
    const target = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
    if (!reexported.has(target)) {
      reexported.add(target);
      pending.push(target);
    }
  }
}
for (const file of walk(runtimeDir)) {
  if (!file.endsWith(`${sep}index.ts`)) continue;
  const folder = relative(runtimeDir, dirname(file)).split(sep).join('/');
  if (!reexported.has(file) && !INTERNAL.has(folder))
    problems.push(
      `runtime/${folder}/index.ts is not reachable from an entry: add "./${folder}" to exports, re-export it from its parent's index.ts, or list "${folder}" in bindery.internal in package.json`,
    );
}

// Consumer code imports entries only.
const SPEC = /(?:from\s+|import\s*\(\s*|declare module\s+)'([^']+)'/g;
for (const dir of CONSUMERS) {
  for (const file of walk(join(root, dir))) {
    if (!/\.(ts|mts)$/.test(file) || file.includes(`${sep}test${sep}`)) continue;
    const text = readFileSync(file, 'utf8');
    for (const [, spec] of text.matchAll(SPEC)) {
      const where = relative(root, file);
      if (spec.startsWith('.') && resolve(dirname(file), spec).startsWith(runtimeDir + sep))
        problems.push(`${where}: imports '${spec}' by a relative path; use bindery/<entry> (node scripts/rewrite-imports.mjs)`);
      else if (spec.startsWith('bindery/') && spec !== 'bindery/package.json' && !entries.has(spec.slice('bindery/'.length)))
        problems.push(`${where}: '${spec}' is not an entry of bindery's exports`);
    }
  }
}

// Every exported name is used by a consumer or listed in docs/package.md.
problems.push(...(await unlistedExports(root, entries)));

// The shipped docs link only to what is shipped.
problems.push(...docLinkProblems(root, pkg.files ?? []));

// The declared types resolve from a project outside the package.
if (problems.length === 0 && entries.size > 0) {
  const probe = mkdtempSync(join(tmpdir(), 'bindery-package-check-'));
  try {
    mkdirSync(join(probe, 'node_modules'));
    symlinkSync(root, join(probe, 'node_modules', pkg.name), 'dir');
    const types = join(here, 'node_modules', '@types');
    if (existsSync(types)) symlinkSync(types, join(probe, 'node_modules', '@types'), 'dir');
    writeFileSync(join(probe, 'package.json'), '{ "type": "module", "private": true }\n');
    writeFileSync(
      join(probe, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2023',
          lib: ['ES2023'],
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          types: existsSync(types) ? ['node'] : [],
          strict: true,
          noEmit: true,
          skipLibCheck: !withDist,
          verbatimModuleSyntax: true,
          ...(withDist ? {} : { customConditions: ['bindery-source'] }),
        },
        include: ['probe.ts'],
      }),
    );
    const names = [...entries.keys()];
    writeFileSync(
      join(probe, 'probe.ts'),
      [
        ...names.map((name, i) => `import type * as e${i} from '${pkg.name}/${name}';`),
        `export type Entries = [${names.map((_, i) => `typeof e${i}`).join(', ')}];`,
        '',
      ].join('\n'),
    );
    const tsc = join(here, 'node_modules', 'typescript', 'bin', 'tsc');
    try {
      execFileSync(process.execPath, [tsc, '-p', probe], { encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      const out = `${error.stdout ?? ''}${error.stderr ?? ''}`.trim();
      for (const line of out.split('\n')) if (line.trim()) problems.push(`types: ${line.replaceAll(probe + sep, '')}`);
    }
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

/**
 * Names each entry exports (ts-morph, `export *` followed) against the names
 * consumers import and the lists of docs/package.md "What each entry
 * exports"; one problem line per unlisted or stale name.
 */
async function unlistedExports(root, entries) {
  const docsFile = join(root, 'docs', 'package.md');
  if (!existsSync(docsFile)) return [];
  const section = readFileSync(docsFile, 'utf8')
    .split(/^## What each entry exports$/m)[1]
    ?.split(/^## /m)[0];
  if (section === undefined) return [];
  const listed = new Map();
  for (const part of section.split(/^### /m).slice(1)) {
    const entry = /^`bindery\/([^`]+)`/.exec(part)?.[1];
    // The names are the entry's last paragraph; the text above it may mention names too.
    const names =
      part
        .trim()
        .split(/\n\s*\n/)
        .at(-1) ?? '';
    if (entry !== undefined) listed.set(entry, new Set([...names.matchAll(/`([A-Za-z_$][\w$]*)`/g)].map((m) => m[1])));
  }
  const used = new Map();
  const note = (entry, name) => (used.get(entry) ?? used.set(entry, new Set()).get(entry)).add(name);
  const USES =
    /(?:import|export)\s+(?:type\s+)?(\{[^}]*\}|\*\s+as\s+\w+)\s+from\s+['"]bindery\/([^'"]+)['"]|declare module\s+['"]bindery\/([^'"]+)['"]\s*\{([\s\S]*?)\n\}|import\(['"]bindery\/([^'"]+)['"]\)\.(\w+)/g;
  for (const dir of [...CONSUMERS, 'templates', 'examples']) {
    for (const file of walk(join(root, dir))) {
      if (!/\.(ts|mts|tmpl)$/.test(file)) continue;
      for (const m of readFileSync(file, 'utf8').matchAll(USES)) {
        if (m[2] !== undefined) {
          if (m[1].startsWith('*')) note(m[2], '*');
          else
            for (const part of m[1].slice(1, -1).split(','))
              note(
                m[2],
                part
                  .trim()
                  .replace(/^type\s+/, '')
                  .split(/\s+as\s+/)[0]
                  .trim(),
              );
        } else if (m[3] !== undefined) for (const [, name] of m[4].matchAll(/^\s*(?:interface|namespace)\s+(\w+)/gm)) note(m[3], name);
        else note(m[5], m[6]);
      }
    }
  }
  const { Node, Project } = await import('ts-morph');
  const project = new Project({ skipAddingFilesFromTsConfig: true, skipFileDependencyResolution: true });
  // Exported names read from the syntax (no type checker: a program over the whole runtime takes half a minute).
  const exportedNames = (file, seen = new Set()) => {
    const names = new Set();
    if (seen.has(file) || !existsSync(file)) return names;
    seen.add(file);
    const sf = project.addSourceFileAtPath(file);
    for (const statement of sf.getStatements()) {
      if (Node.isExportDeclaration(statement)) {
        const named = statement.getNamedExports();
        const spec = statement.getModuleSpecifierValue();
        if (named.length > 0) for (const n of named) names.add((n.getAliasNode() ?? n.getNameNode()).getText());
        else if (statement.getNamespaceExport()) names.add(statement.getNamespaceExport().getName());
        else if (spec?.startsWith('.'))
          for (const n of exportedNames(resolve(dirname(file), spec.replace(/\.js$/, '.ts')), seen)) names.add(n);
      } else if (Node.isVariableStatement(statement) && statement.isExported()) {
        for (const d of statement.getDeclarations()) names.add(d.getName());
      } else if (Node.isExportable(statement) && statement.isExported() && typeof statement.getName === 'function') {
        names.add(statement.getName());
      }
    }
    return names;
  };
  const out = [];
  for (const [entry, target] of entries) {
    const source = join(root, target['bindery-source']);
    if (!existsSync(source)) continue;
    const names = [...exportedNames(source)];
    const uses = used.get(entry) ?? new Set();
    const list = listed.get(entry) ?? new Set();
    for (const name of names)
      if (!uses.has(name) && !uses.has('*') && !list.has(name))
        out.push(
          `bindery/${entry} exports ${name}, which no consumer uses and docs/package.md does not list: list it under "bindery/${entry}" if it is public, or stop exporting it`,
        );
    const exported = new Set(names);
    for (const name of list)
      if (!exported.has(name)) out.push(`docs/package.md lists ${name} under "bindery/${entry}", which that entry does not export`);
  }
  return out;
}

for (const p of problems) console.error(p);
if (problems.length > 0) {
  console.error(`package check: ${problems.length} problem${problems.length === 1 ? '' : 's'}`);
  process.exitCode = 1;
} else {
  console.log(`package check: ${entries.size} entries ok (${withDist ? 'dist' : 'sources'}).`);
}
