/**
 * Putting files back as they were when a step of `bindery add` / `remove`
 * fails ("restores everything if any step fails", docs/spec.md 9): file contents
 * byte for byte (or their absence), and package folders under node_modules
 * moved aside and back.
 */
import { existsSync, lstatSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Saved state of some files and folders of a project. */
export class FileSnapshot {
  readonly #root: string;
  readonly #files = new Map<string, Buffer | null>();
  readonly #folders: { path: string; backup: string | null; parentExisted: boolean }[] = [];
  readonly #backupDir: string;

  constructor(root: string) {
    this.#root = root;
    this.#backupDir = join(root, 'node_modules', `.bindery-backup-${process.pid}-${Date.now()}`);
  }

  /** Remember the bytes of each file (relative to the root), or that it does not exist. */
  async saveFiles(paths: readonly string[]): Promise<void> {
    for (const p of paths) {
      if (this.#files.has(p)) continue;
      try {
        this.#files.set(p, await readFile(join(this.#root, p)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        this.#files.set(p, null);
      }
    }
  }

  /**
   * Move a folder (or link) aside, to put it back on restore; when it does not
   * exist, restore removes whatever is there then.
   */
  async moveAside(path: string): Promise<void> {
    const abs = join(this.#root, path);
    const parentExisted = existsSync(dirname(abs));
    let exists = false;
    try {
      lstatSync(abs);
      exists = true;
    } catch {
      /* absent */
    }
    if (!exists) {
      this.#folders.push({ path, backup: null, parentExisted });
      return;
    }
    const backup = join(this.#backupDir, path.replace(/[\\/]/g, '__'));
    await mkdir(dirname(backup), { recursive: true });
    await rename(abs, backup);
    this.#folders.push({ path, backup, parentExisted });
  }

  /** Put every file and folder back as saved. */
  async restore(): Promise<void> {
    for (const [p, bytes] of this.#files) {
      const abs = join(this.#root, p);
      if (bytes === null) await rm(abs, { force: true });
      else {
        await mkdir(dirname(abs), { recursive: true });
        await writeFile(abs, bytes);
      }
    }
    for (const f of [...this.#folders].reverse()) {
      const abs = join(this.#root, f.path);
      await rm(abs, { recursive: true, force: true });
      if (f.backup !== null) {
        await mkdir(dirname(abs), { recursive: true });
        await rename(f.backup, abs);
      } else if (!f.parentExisted) {
        // A scope folder (node_modules/@scope) npm made for the package.
        await rm(dirname(abs), { recursive: true, force: true });
      }
    }
    await this.discard();
  }

  /** Forget the saved state (drop the folders moved aside). */
  async discard(): Promise<void> {
    if (existsSync(this.#backupDir)) await rm(this.#backupDir, { recursive: true, force: true });
  }
}
