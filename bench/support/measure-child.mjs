// Runs a Node script given as the first argument (its arguments follow) and,
// when the process exits, writes its own CPU time and peak memory as one JSON
// line to file descriptor 3: the generator benchmark (bench/generator.ts)
// measures `bindery generate` this way, as a whole fresh process. The CPU
// time includes the children the script waited for (`cutime` and `cstime` of
// /proc/self/stat, on Linux): `tsc` of TypeScript 7 is a native program its
// Node script runs. Peak memory is the Node process's own.
import { readFileSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [script, ...rest] = process.argv.slice(2);
process.argv = [process.argv[0], resolve(script), ...rest];
// TypeScript 7's tsc script replaces its process with the native program
// through `process.execve` where Node has it (22.15+), which would skip the
// exit handler below; without it, the script runs the program as a child.
process.execve = undefined;
process.on('exit', () => {
  const usage = process.resourceUsage();
  writeSync(
    3,
    `${JSON.stringify({ cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000 + childrenCpuMs(), maxRssKb: usage.maxRSS })}\n`,
  );
});
await import(pathToFileURL(resolve(script)).href);

/** CPU time of the waited-for children, in ms (0 where /proc is missing); /proc counts in USER_HZ, 100 per second. */
function childrenCpuMs() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0;
  }
}
