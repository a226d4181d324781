/**
 * Warming a standby app process of `bindery dev` (docs/cli.md "dev — the
 * development loop"): the framework entries the project's code imports are
 * loaded before the app is, so a restart only loads the app's own modules.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Folders whose sources are scanned for `bindery/<entry>` imports. */
const SCANNED = ['app', 'generated', 'plugins'];
/** Entries never preloaded: the CLI and the test kit are not part of a served app. */
const SKIPPED = new Set(['cli', 'testing']);
const ENTRY = /\bfrom\s+['"]bindery\/([a-z0-9/-]+)['"]|\bimport\(\s*['"]bindery\/([a-z0-9/-]+)['"]\s*\)/g;

/**
 * The `bindery/<entry>` names imported by the TypeScript and JavaScript files
 * under `app/`, `generated/` and `plugins/` of `root` (missing folders are skipped).
 * @returns entry names such as `app`, `auth/links`, sorted.
 */
export async function importedEntries(root: string): Promise<string[]> {
  const entries = new Set<string>();
  for (const dir of SCANNED) {
    let files: string[];
    try {
      files = (await readdir(join(root, dir), { recursive: true })).map(String);
    } catch {
      continue;
    }
    for (const file of files) {
      if (!/\.(ts|mts|js|mjs)$/.test(file) || /(^|[\\/])node_modules[\\/]/.test(file)) continue;
      const text = await readFile(join(root, dir, file), 'utf8').catch(() => '');
      for (const m of text.matchAll(ENTRY)) entries.add((m[1] ?? m[2])!);
    }
  }
  return [...entries].filter((e) => !SKIPPED.has(e.split('/')[0]!)).sort();
}

/**
 * Import every entry {@link importedEntries} finds, through bindery's own
 * package exports (the same modules the app then gets), and make (and
 * close) one Fastify instance, which loads Fastify's schema compilers. An
 * entry that fails to load is skipped: the app's own import reports it.
 */
export async function preloadFramework(root: string): Promise<void> {
  const entries = await importedEntries(root);
  await Promise.all(entries.map((entry) => import(`bindery/${entry}`).catch(() => undefined)));
  const { default: fastify } = await import('fastify');
  await fastify().close();
}
