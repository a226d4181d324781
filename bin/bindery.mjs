#!/usr/bin/env node
// The `bindery` command (docs/cli.md). Runs the TypeScript sources through
// tsx, then hands the arguments to runtime/cli/main.ts; exit codes: 0 ok,
// 1 error, 2 usage error.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../runtime/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
// Everything the commands open is closed by now; if a stray handle kept the
// process alive, leave anyway (the timer itself does not keep it alive).
setTimeout(() => process.exit(), 2000).unref();
