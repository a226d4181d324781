import { Project } from 'ts-morph';
import { readFileSync } from 'node:fs';
import { resolve, relative, dirname } from 'node:path';
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const decl = JSON.parse(readFileSync('/tmp/surf/decl.json', 'utf8'));
const byIndex = new Map();
for (const [key, t] of Object.entries(pkg.exports)) if (key !== './package.json') byIndex.set(resolve(t['bindery-source']), key.slice(2));
const files = process.argv.slice(2);
const project = new Project({ tsConfigFilePath: 'tsconfig.json', skipAddingFilesFromTsConfig: true });
const idx = new Map();
for (const [p, e] of byIndex) {
  const sf = project.addSourceFileAtPath(p);
  idx.set(e, new Set(sf.getExportedDeclarations().keys()));
}
for (const f of files) {
  const sf = project.addSourceFileAtPath(f);
  let changed = false;
  for (const imp of [...sf.getImportDeclarations(), ...sf.getExportDeclarations()]) {
    const spec = imp.getModuleSpecifierValue?.();
    if (!spec) continue;
    let entry;
    if (spec.startsWith('bindery/')) entry = spec.slice(8);
    else if (spec.startsWith('.')) entry = byIndex.get(resolve(dirname(f), spec.replace(/\.js$/, '.ts')));
    if (!entry || !idx.has(entry)) continue;
    const named = imp.getNamedImports ? imp.getNamedImports() : imp.getNamedExports();
    const moves = new Map();
    for (const n of named) {
      const name = n.getNameNode().getText();
      if (idx.get(entry).has(name)) continue;
      const target = decl[entry]?.[name];
      if (!target) {
        console.log('?? ', f, entry, name);
        continue;
      }
      let rel = relative(dirname(f), target).replace(/\.ts$/, '.js');
      if (!rel.startsWith('.')) rel = './' + rel;
      const text = n.getText();
      const typeOnly = imp.isTypeOnly();
      (moves.get(rel) ?? moves.set(rel, []).get(rel)).push(typeOnly && !text.startsWith('type ') ? text : text);
      n.remove();
    }
    if (moves.size === 0) continue;
    changed = true;
    const i = imp.getChildIndex();
    const isExport = !imp.getNamedImports;
    const tOnly = imp.isTypeOnly();
    for (const [rel, names] of moves) {
      const stmt = `${isExport ? 'export' : 'import'} ${tOnly ? 'type ' : ''}{ ${names.join(', ')} } from '${rel}';`;
      sf.insertStatements(i + 1, stmt);
    }
    const remaining = imp.getNamedImports ? imp.getNamedImports() : imp.getNamedExports();
    if (remaining.length === 0 && !imp.getDefaultImport?.() && !imp.getNamespaceImport?.()) imp.remove();
  }
  if (changed) {
    sf.saveSync();
    console.log('fixed', f);
  }
}
