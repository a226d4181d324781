#!/usr/bin/env node
// The `bindery` command (docs/cli.md); exit codes: 0 ok, 1 error, 2 usage
// error. Which code runs (docs/package.md#binbinderymjs):
// - NODE_ENV=production: plain Node, no tsx. The framework's compiled
//   JavaScript (dist/) and the app's build (build/, by `bindery build`).
// - otherwise, in the bindery repository (the TypeScript sources are next
//   to this file): the sources, through tsx, with `bindery/<entry>` resolved
//   to them by the `bindery-source` export condition; BINDERY_DIST=1 runs
//   dist/ instead;
// - otherwise, in an installed package: dist/.
// Outside production tsx is registered (when installed) for the app's own
// TypeScript (app/main.ts, generated/), which the CLI loads.
import { existsSync, readFileSync } from 'node:fs';
import module, { register as registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';

// Node 22.1 and later keep V8's compiled code of the modules on disk (in the
// temporary folder): every later command, and each app process of `bindery
// dev`, loads bindery and its dependencies about twice as fast.
// NODE_DISABLE_COMPILE_CACHE=1 turns it off; Node 20 has no such cache.
module.enableCompileCache?.();

// One line on stderr on a Node.js version package.json's `engines` does
// not admit (semver's reading of the range); the command still runs.
const engines = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines?.node;
if (typeof engines === 'string') {
  const { default: satisfies } = await import('semver/functions/satisfies.js');
  if (!satisfies(process.versions.node, engines)) {
    console.error(
      `bindery: warning: Node.js ${process.versions.node} is not supported (bindery needs ${engines}); install Node.js 24 (README.md "Set up a fresh machine").`,
    );
  }
}

const sourceMain = new URL('../runtime/cli/main.ts', import.meta.url);
const distMain = new URL('../dist/runtime/cli/main.js', import.meta.url);
const production = process.env.NODE_ENV?.trim() === 'production';
const fromSource = !production && existsSync(sourceMain) && (process.env.BINDERY_DIST !== '1' || !existsSync(distMain));

// A help line (`--help`, `<command> --help`, `--version`) is answered
// without the app, so tsx is not registered for it (docs/cli.md "Help
// without loading the app"); the sources in the repository need it anyway.
const argv = process.argv.slice(2);
const mainModule = !production && !fromSource && existsSync(distMain) ? await import(distMain.href) : undefined;
const withoutApp = mainModule?.answersWithoutApp(argv, process.cwd()) === true;

if (!production && !withoutApp) {
  let tsx;
  try {
    tsx = await import('tsx/esm/api');
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    if (fromSource) {
      console.error('bindery: running the TypeScript sources needs tsx (npm install), or set NODE_ENV=production to run dist/.');
      process.exit(1);
    }
  }
  tsx?.register();
}
if (fromSource) {
  // Registered after tsx, so it runs first: adds the condition, then defers.
  registerHooks(
    `data:text/javascript,${encodeURIComponent(
      "export async function resolve(s, c, next) { return next(s, c.conditions.includes('bindery-source') ? c : { ...c, conditions: [...c.conditions, 'bindery-source'] }); }",
    )}`,
  );
}
if (!fromSource && !existsSync(distMain)) {
  console.error('bindery: dist/ is missing; run `npm run build` in the bindery package.');
  process.exit(1);
}
if (production && existsSync(sourceMain)) {
  // In the repository, the sources are next to dist/: refuse a stale dist/.
  const { checkBuild } = await import(new URL('../dist/runtime/app/build-project.js', import.meta.url).href);
  const problem = await checkBuild(fileURLToPath(new URL('..', import.meta.url)), 'dist');
  if (problem !== undefined) {
    console.error(`bindery: NODE_ENV=production runs the framework's dist/, but ${problem}; run \`npm run build\`.`);
    process.exit(1);
  }
}
const { main } = mainModule ?? (await import(fromSource ? sourceMain.href : distMain.href));
process.exitCode = await main(argv);
// Everything the commands open is closed by now; if a stray handle kept the
// process alive, leave anyway (the timer itself does not keep it alive).
setTimeout(() => process.exit(), 2000).unref();
