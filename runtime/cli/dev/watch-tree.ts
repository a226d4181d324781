/**
 * Watching project folders for `bindery dev` (docs/cli.md "dev — the development loop"):
 * `node:fs` `watch` with `recursive: true`, with bursts of events (an
 * editor's save, a `git checkout`) gathered into one callback.
 */
import { watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';

/** One gathered burst: the changed paths, relative to the project root, sorted. */
export type ChangeBatch = readonly string[];

/** Options of {@link watchTree}. */
export interface WatchTreeOptions {
  /** Project root; paths in batches are relative to it. */
  readonly root: string;
  /** Folders (relative to `root`) to watch recursively; missing ones are skipped. */
  readonly dirs: readonly string[];
  /** Files (relative to `root`) to watch on their own, e.g. `.env`; missing ones are skipped. */
  readonly files?: readonly string[];
  /** Quiet time in milliseconds that ends a burst (default 80). */
  readonly debounceMs?: number;
  /** Paths (relative to `root`) to leave out, e.g. editor swap files. */
  readonly ignore?: (path: string) => boolean;
  /** Called once per burst, never while a previous call's promise is pending (changes meanwhile make the next burst). */
  readonly onChange: (batch: ChangeBatch) => Promise<void> | void;
}

/** A running watch. */
export interface TreeWatch {
  /** Stop watching; a pending burst is dropped. Idempotent. */
  close(): void;
}

/** Editor and OS noise: swap and backup files, `.DS_Store`, `node_modules`. */
export function isNoise(path: string): boolean {
  const base = path.split(/[\\/]/).pop() ?? path;
  return /(^|[\\/])node_modules([\\/]|$)/.test(path) || /^\.#|~$|\.sw[a-p]$|^\.DS_Store$|^\d+$|\.tmp$/.test(base);
}

/**
 * Watch `dirs` and `files` under `root` and call `onChange` once per burst.
 * @returns the watch; `close()` it at shutdown.
 */
export function watchTree(options: WatchTreeOptions): TreeWatch {
  const debounceMs = options.debounceMs ?? 80;
  const watchers: FSWatcher[] = [];
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let closed = false;

  const flush = () => {
    timer = undefined;
    if (closed || pending.size === 0) return;
    if (running) return; // the running call re-flushes when it ends
    const batch = [...pending].sort();
    pending = new Set();
    running = Promise.resolve()
      .then(() => options.onChange(batch))
      .catch(() => {})
      .finally(() => {
        running = undefined;
        if (pending.size > 0 && !closed) timer = setTimeout(flush, debounceMs);
      });
  };
  const record = (path: string) => {
    if (closed || isNoise(path) || options.ignore?.(path)) return;
    pending.add(path);
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  };
  const add = (target: string, recursive: boolean) => {
    try {
      const w = watch(join(options.root, target), { recursive }, (_event, name) => {
        record(recursive ? join(target, name?.toString() ?? '') : target);
      });
      w.on('error', () => {});
      watchers.push(w);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  };
  for (const dir of options.dirs) add(dir, true);
  for (const file of options.files ?? []) add(file, false);
  return {
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const w of watchers) w.close();
    },
  };
}
