/**
 * `bin/bindery.mjs` says in one line when the Node.js running it is one
 * package.json's `engines` does not admit (README.md "Set up a fresh
 * machine"), and says nothing on a supported one.
 */
import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, runCli } from '../runtime/cli/run-cli.js';

const REPO_MODULES = fileURLToPath(new URL('../../node_modules', import.meta.url));

describe('bin/bindery.mjs | the Node.js version', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('warns in one line on a version the engines range does not admit, and still runs', async () => {
    // A copy of the bin whose package.json admits no Node.js of today.
    const pkg = await mkdtemp(join(tmpdir(), 'bindery-engines-'));
    dirs.push(pkg);
    await mkdir(join(pkg, 'bin'));
    await copyFile(BIN, join(pkg, 'bin', 'bindery.mjs'));
    await writeFile(join(pkg, 'package.json'), '{ "name": "bindery", "type": "module", "engines": { "node": "^98.1 || >=99" } }\n');
    await symlink(REPO_MODULES, join(pkg, 'node_modules'));
    const r = spawnSync(process.execPath, [join(pkg, 'bin', 'bindery.mjs'), '--version'], {
      cwd: pkg,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1' },
    });
    const [warning, ...rest] = r.stderr.split('\n');
    expect(warning).toBe(
      `bindery: warning: Node.js ${process.versions.node} is not supported (bindery needs ^98.1 || >=99); install Node.js 24 (README.md "Set up a fresh machine").`,
    );
    // It goes on: this copy has no dist/, which it says next.
    expect(rest.join('\n')).toContain('dist/ is missing');
  });

  it('says nothing on a supported version', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'bindery-engines-ok-'));
    dirs.push(cwd);
    const r = await runCli(['--version'], { cwd });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});
