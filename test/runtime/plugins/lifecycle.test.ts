/**
 * `bindery add` / `bindery remove` (docs/spec.md 9) on a scratch
 * copy of the app: the files bindery needs, and node_modules as hard links
 * (fast; npm replaces files rather than writing into them). Plugins are
 * tarballs made with `npm pack` from a fixture, as a user would add a
 * published one. Everything runs through the real CLI and real npm.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile, lstat, readlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendEnvBlock } from '../../../runtime/plugins/lifecycle/env-example.js';
import { planFramework } from '../../../runtime/plugins/lifecycle/framework-upgrade.js';
import { runCli } from '../cli/run-cli.js';

const exec = promisify(execFile);
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const FIXTURE = fileURLToPath(new URL('./fixtures/greeter-plugin/', import.meta.url));
const COPIED = [
  'package.json',
  'package-lock.json',
  '.env.example',
  'bin',
  'runtime',
  'generator',
  'generated',
  'app',
  'schema',
  'plugins',
];

let work: string;
let scratch: string;
const tarballs: Record<string, string> = {};

/** Pack a variant of the fixture plugin: `edit` changes its package.json and its source. */
async function pack(label: string, edit: (pkg: Record<string, any>, source: string) => [Record<string, any>, string]): Promise<string> {
  const dir = join(work, `plugin-${label}`);
  await cp(FIXTURE, dir, { recursive: true });
  const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as Record<string, any>;
  const [newPkg, newSource] = edit(pkg, await readFile(join(dir, 'src/index.ts'), 'utf8'));
  await writeFile(join(dir, 'package.json'), JSON.stringify(newPkg, null, 2));
  await writeFile(join(dir, 'src/index.ts'), newSource);
  const { stdout } = await exec('npm', ['pack', '--json', '--pack-destination', work], { cwd: dir });
  return join(work, (JSON.parse(stdout) as { filename: string }[])[0]!.filename);
}

/** A scratch copy of the app: its files, and node_modules hard-linked (the hidden lock file copied). */
async function makeScratch(): Promise<string> {
  const dir = join(work, 'app');
  await mkdir(dir);
  for (const entry of COPIED)
    await cp(join(REPO, entry), join(dir, entry), {
      recursive: true,
      verbatimSymlinks: true,
      filter: (src) => !src.includes('/node_modules/') && !src.endsWith('/.data'),
    });
  await exec('cp', ['-al', join(REPO, 'node_modules'), join(dir, 'node_modules')]);
  await rm(join(dir, 'node_modules', '.package-lock.json'), { force: true });
  await cp(join(REPO, 'node_modules', '.package-lock.json'), join(dir, 'node_modules', '.package-lock.json'));
  // Type-check what a plugin touches: the plugin list and, through it, the plugins and the framework.
  await writeFile(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ extends: join(REPO, 'tsconfig.json'), include: ['generated/plugins.ts'], exclude: ['node_modules'] }),
  );
  return dir;
}

/** Hash of every file of the scratch project, node_modules' top level (names and link targets) included, its `.cache` left out. */
async function fingerprint(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  async function walk(abs: string): Promise<void> {
    for (const entry of await readdir(abs, { withFileTypes: true })) {
      const path = join(abs, entry.name);
      const rel = relative(dir, path);
      if (rel === 'node_modules') {
        for (const top of await readdir(path)) {
          // The generator's run record (a cache keyed by its inputs) may be
          // written by a step and left: it is not the user's state.
          if (top === '.cache') continue;
          const p = join(path, top);
          const s = await lstat(p);
          out.set(
            `node_modules/${top}`,
            s.isSymbolicLink()
              ? `-> ${await readlink(p)}`
              : s.isDirectory()
                ? 'dir'
                : createHash('sha256')
                    .update(await readFile(p))
                    .digest('hex'),
          );
        }
        continue;
      }
      if (entry.isDirectory()) await walk(path);
      else
        out.set(
          rel,
          createHash('sha256')
            .update(await readFile(path))
            .digest('hex'),
        );
    }
  }
  await walk(dir);
  return out;
}

const cli = (args: string[]) =>
  runCli(args, {
    cwd: scratch,
    env: { npm_config_prefer_offline: 'true', npm_config_update_notifier: 'false', LOG_LEVEL: 'silent' },
    // An add installs, generates and type-checks: minutes on a loaded 2-core machine.
    timeoutMs: 240_000,
  });

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'bindery-lifecycle-'));
  scratch = await makeScratch();
  [tarballs.good, tarballs.future, tarballs.past, tarballs.reserved, tarballs.typeError] = await Promise.all([
    pack('good', (p, s) => [p, s]),
    pack('future', (p, s) => [
      { ...p, name: 'bindery-plugin-future', peerDependencies: { bindery: '>=0.4.0 <0.5.0' } },
      s.replace("bindery: '>=0.3.0 <0.4.0'", "bindery: '>=0.4.0 <0.5.0'"),
    ]),
    pack('past', (p, s) => [{ ...p, name: 'bindery-plugin-past', peerDependencies: { bindery: '>=0.2.0 <0.3.0' } }, s]),
    pack('reserved', (p, s) => [{ ...p, name: 'bindery-plugin-reserved' }, s.replace("name: 'greeter'", "name: 'session'")]),
    pack('type-error', (p, s) => [
      { ...p, name: 'bindery-plugin-type-error' },
      s.replace("handlers: { 'greeter.hello': () => text('hello') }", "handlers: { 'greeter.hello': () => text(42) }"),
    ]),
  ]);
}, 120_000);
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('bindery add | refusals change nothing', () => {
  it('refuses a plugin for a newer framework (this project is bindery itself: no upgrade) and one for an older; every file stays byte-identical', async () => {
    const before = await fingerprint(scratch);
    const future = await cli(['add', tarballs.future!]);
    expect(future.code).toBe(1);
    expect(future.stderr).toContain(
      'bindery-plugin-future 1.0.0 requires bindery >=0.4.0 <0.5.0; this app has bindery 0.3.0. This project is bindery itself',
    );
    expect(future.stderr).toContain('(BINDERY_PLUGIN_VERSION_MISMATCH');
    const past = await cli(['add', tarballs.past!]);
    expect(past.code).toBe(1);
    expect(past.stderr).toContain(
      'bindery-plugin-past 1.0.0 requires bindery >=0.2.0 <0.3.0; this app has bindery 0.3.0, which is newer than the plugin supports',
    );
    const missing = await cli(['add', join(work, 'nope.tgz')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('BINDERY_PLUGIN_NOT_FOUND');
    const taken = await cli(['add', join(REPO, 'plugins/mailprovider')]);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('@bindery/mailprovider is already in the plugin list');
    expect(await fingerprint(scratch)).toEqual(before);
  });

  it('a failure after installing (a reserved name; a type error) restores every file, node_modules included', async () => {
    const before = await fingerprint(scratch);
    const reserved = await cli(['add', tarballs.reserved!]);
    expect(reserved.code).toBe(1);
    expect(reserved.stdout).toContain('install (npm install');
    expect(reserved.stderr).toContain('failed at "load the plugin and check its manifest": The plugin name "session" is reserved');
    expect(reserved.stderr).toContain('Every file it changed was restored');
    expect(await fingerprint(scratch)).toEqual(before);

    const typeError = await cli(['add', tarballs.typeError!]);
    expect(typeError.code).toBe(1);
    expect(typeError.stderr).toContain('failed at "type-check (tsc --noEmit)": tsc --noEmit reports errors');
    expect(typeError.stderr).toContain('bindery-plugin-type-error/src/index.ts');
    expect(await fingerprint(scratch)).toEqual(before);
  }, 420_000);
});

describe('bindery add / remove | round trip on a scratch copy of the app', () => {
  it('adds the plugin (installed, listed, generated, type-checked, settings appended), lists it, then removes it', async () => {
    const pkgBefore = await readFile(join(scratch, 'package.json'), 'utf8');
    const listBefore = await readFile(join(scratch, 'generated/plugins.ts'), 'utf8');
    const envBefore = await readFile(join(scratch, '.env.example'), 'utf8');

    const added = await cli(['add', tarballs.good!]);
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('type-check (tsc --noEmit) … done');
    expect(added.stdout).toContain('Added bindery-plugin-greeter 1.0.0 as the plugin "greeter".');
    expect(added.stdout).toContain('Set GREETER_GREETING, GREETER_TONE in .env');

    const pkg = JSON.parse(await readFile(join(scratch, 'package.json'), 'utf8')) as Record<string, any>;
    expect(pkg.bindery.plugins).toEqual(['@bindery/mailprovider', 'bindery-plugin-greeter']);
    expect(pkg.dependencies['bindery-plugin-greeter']).toMatch(/^file:.*bindery-plugin-greeter-1\.0\.0\.tgz$/);
    const list = await readFile(join(scratch, 'generated/plugins.ts'), 'utf8');
    expect(list).toContain("import binderyPluginGreeterPlugin from 'bindery-plugin-greeter';");
    expect(list).toContain("export const pluginPackages: readonly string[] = ['@bindery/mailprovider', 'bindery-plugin-greeter'];");
    const env = await readFile(join(scratch, '.env.example'), 'utf8');
    expect(env.startsWith(envBefore)).toBe(true);
    expect(env.slice(envBefore.length)).toBe(
      [
        '',
        '# greeter',
        '# GREETER_GREETING (required): What the greeter says. Allowed: any text.',
        'GREETER_GREETING=',
        '# GREETER_TONE (optional, default warm): How it says it. Allowed: any text.',
        'GREETER_TONE=',
        '',
      ].join('\n'),
    );
    expect((await lstat(join(scratch, 'node_modules/bindery-plugin-greeter'))).isDirectory()).toBe(true);

    // Installed into node_modules, the plugin imports the framework by its package name.
    const listed = await cli(['plugins:list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^PLUGIN\s+REQUIRES\s+ROUTES\s+ADDS\n/);
    expect(listed.stdout).toMatch(/greeter 1\.0\.0 \(not loaded\)\s+>=0\.3\.0 <0\.4\.0\s+GET \/greeter\/hello\s+2 settings, 1 command\n/);
    expect(listed.stdout).toContain('greeter (bindery-plugin-greeter) is not loaded: GREETER_GREETING is missing');
    const envText = await cli(['plugins:env', 'greeter']);
    expect(envText).toMatchObject({
      code: 0,
      stdout:
        '# greeter\n# GREETER_GREETING (required): What the greeter says. Allowed: any text.\nGREETER_GREETING=\n# GREETER_TONE (optional, default warm): How it says it. Allowed: any text.\nGREETER_TONE=\n',
    });

    // Adding it again is refused.
    const again = await cli(['add', tarballs.good!]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('bindery-plugin-greeter is already in the plugin list');

    const removed = await cli(['remove', 'greeter']);
    expect(removed.stderr).toBe('');
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain('Removed bindery-plugin-greeter.');
    expect(removed.stdout).toContain(
      'Its settings stay in .env and .env.example, and its tables in the database (migrations recorded with source "greeter")',
    );
    expect(JSON.parse(await readFile(join(scratch, 'package.json'), 'utf8'))).toEqual(JSON.parse(pkgBefore));
    expect(await readFile(join(scratch, 'generated/plugins.ts'), 'utf8')).toBe(listBefore);
    expect(await readFile(join(scratch, '.env.example'), 'utf8')).toBe(env); // settings stay
    await expect(lstat(join(scratch, 'node_modules/bindery-plugin-greeter'))).rejects.toThrow();

    const unknown = await cli(['remove', 'greeter']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('"greeter" is not in the plugin list');
  }, 420_000);
});

describe('bindery add | framework versions and .env.example', () => {
  it('plans an upgrade only when npm can choose a newer bindery for the app', () => {
    const label = 'p 1.0.0';
    expect(planFramework(label, '>=0.3.0 <0.4.0', '0.3.0', { isFramework: true })).toEqual({ action: 'none' });
    expect(planFramework(label, '>=0.4.0 <0.5.0', '0.3.0', { isFramework: false, dependencySpec: '^0.3.0' })).toEqual({
      action: 'upgrade',
      range: '>=0.4.0 <0.5.0',
      message:
        'p 1.0.0 requires bindery >=0.4.0 <0.5.0; this app has bindery 0.3.0: upgrading bindery to the newest version in >=0.4.0 <0.5.0.',
    });
    expect(planFramework(label, '>=0.4.0', '0.3.0', { isFramework: true }).action).toBe('refuse');
    expect(planFramework(label, '>=0.4.0', '0.3.0', { isFramework: false, dependencySpec: 'file:../bindery' })).toMatchObject({
      action: 'refuse',
      message: expect.stringContaining('installed from "file:../bindery" (not a registry version)'),
    });
    expect(planFramework(label, '>=0.4.0', '0.3.0', { isFramework: false })).toMatchObject({
      action: 'refuse',
      message: expect.stringContaining('does not list bindery as a dependency'),
    });
    expect(planFramework(label, '<0.3.0', '0.3.0', { isFramework: false, dependencySpec: '^0.3.0' })).toMatchObject({
      action: 'refuse',
      message: expect.stringContaining('newer than the plugin supports'),
    });
    expect(planFramework(label, 'whenever', '0.3.0', { isFramework: false }).action).toBe('refuse');
  });

  it('appends only the settings .env.example lacks', () => {
    const block = '# greeter\n# A (required): a.\nGREETER_A=\n# B: b.\nGREETER_B=\n';
    expect(appendEnvBlock('X=1\n', block)).toEqual({ text: `X=1\n\n${block}`, added: ['GREETER_A', 'GREETER_B'] });
    expect(appendEnvBlock('# GREETER_A=x\n', block)).toEqual({
      text: '# GREETER_A=x\n\n# greeter\n# B: b.\nGREETER_B=\n',
      added: ['GREETER_B'],
    });
    expect(appendEnvBlock('GREETER_A=\nGREETER_B=2\n', block)).toEqual({ text: 'GREETER_A=\nGREETER_B=2\n', added: [] });
  });
});
