// Lines written by hand: the non-blank lines of schema/*.yaml and app/**/*.ts
// (generated/ excluded), per file and in all.
//
//   node scripts/count-lines.mjs                    # this project
//   node scripts/count-lines.mjs <realworld>/apps/api   # the specification's reference implementation, the same way
//
// For the reference implementation: its TypeScript (server/, nitro.config.ts)
// and its Prisma schema; not its migrations, seed, lock file or database.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = process.argv[2] ?? join(import.meta.dirname, '..');
const own = process.argv[2] === undefined;
const wanted = own ? /^(schema\/[^/]+\.ya?ml|app\/.+\.ts)$/ : /^(server\/.+\.ts|nitro\.config\.ts|prisma\/schema\.prisma)$/;

function* files(dir) {
  for (const name of readdirSync(dir).sort()) {
    if (name === 'node_modules' || name === 'generated' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (wanted.test(relative(root, path))) yield path;
  }
}

let total = 0;
for (const path of files(root)) {
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '').length;
  total += lines;
  console.log(`${String(lines).padStart(5)}  ${relative(root, path)}`);
}
console.log(`${String(total).padStart(5)}  in all`);
