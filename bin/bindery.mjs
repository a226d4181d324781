#!/usr/bin/env node
// The `bindery` command (docs/cli.md); exit codes: 0 ok, 1 error, 2 usage
// error. Which framework code runs (docs/package.md):
// - in the bindery repository (the TypeScript sources are next to this file)
//   the sources, through tsx, with `bindery/<entry>` resolved to them by the
//   `bindery-source` export condition; BINDERY_DIST=1 runs dist/ instead;
// - in an installed package, the compiled JavaScript under dist/.
// Either way tsx is registered for the app's own TypeScript (app/main.ts,
// generated/), which the CLI loads.
import { existsSync } from 'node:fs';
import { register as registerHooks } from 'node:module';
import { register } from 'tsx/esm/api';

const sourceMain = new URL('../runtime/cli/main.ts', import.meta.url);
const distMain = new URL('../dist/runtime/cli/main.js', import.meta.url);
const fromSource = existsSync(sourceMain) && (process.env.BINDERY_DIST !== '1' || !existsSync(distMain));

register();
if (fromSource) {
  // Registered after tsx, so it runs first: adds the condition, then defers.
  registerHooks(`data:text/javascript,${encodeURIComponent(
    "export async function resolve(s, c, next) { return next(s, c.conditions.includes('bindery-source') ? c : { ...c, conditions: [...c.conditions, 'bindery-source'] }); }",
  )}`);
}
if (!fromSource && !existsSync(distMain)) {
  console.error('bindery: dist/ is missing; run `npm run build` in the bindery package.');
  process.exit(1);
}
const { main } = await import(fromSource ? sourceMain.href : distMain.href);
process.exitCode = await main(process.argv.slice(2));
// Everything the commands open is closed by now; if a stray handle kept the
// process alive, leave anyway (the timer itself does not keep it alive).
setTimeout(() => process.exit(), 2000).unref();
