// Runs a Node script given as the first argument (its arguments follow) and,
// when the process exits, writes its own CPU time and peak memory as one JSON
// line to file descriptor 3: the generator benchmark (bench/generator.ts)
// measures `bindery generate` this way, as a whole fresh process.
import { writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [script, ...rest] = process.argv.slice(2);
process.argv = [process.argv[0], resolve(script), ...rest];
process.on('exit', () => {
  const usage = process.resourceUsage();
  writeSync(3, `${JSON.stringify({ cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000, maxRssKb: usage.maxRSS })}\n`);
});
await import(pathToFileURL(resolve(script)).href);
