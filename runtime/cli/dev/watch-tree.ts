/**
 * Watching project folders for `bindery dev` (docs/cli.md "dev — the development loop"):
 * chokidar (Node's own recursive `fs.watch` on Linux loses a file replaced
 * by a rename, as `sed -i` and editors' atomic saves do), with bursts of
 * events (an editor's save, a `git checkout`) gathered into one callback.
 */
import { relative, sep } from 'node:path';
import { watch } from 'chokidar';

/** One gathered burst: the changed paths, relative to the project root, sorted. */
export type ChangeBatch = readonly string[];

/** Options of {@link watchTree}. */
export interface WatchTreeOptions {
  /** Project root; paths in batches are relative to it. */
  readonly root: string;
  /** Folders (relative to `root`) to watch recursively; a missing one is watched for when it appears. */
  readonly dirs: readonly string[];
  /** Files (relative to `root`) to watch on their own, e.g. `.env`; a missing one is watched for when it appears. */
  readonly files?: readonly string[];
  /** Quiet time in milliseconds that ends a burst (default 40). */
  readonly debounceMs?: number;
  /** Paths (relative to `root`) to leave out, e.g. editor swap files. */
  readonly ignore?: (path: string) => boolean;
  /** Called once per burst, never while a previous call's promise is pending (changes meanwhile make the next burst). */
  readonly onChange: (batch: ChangeBatch) => Promise<void> | void;
}

/** A running watch. */
export interface TreeWatch {
  /** Resolves once the folders were scanned: changes from then on are seen. */
  readonly ready: Promise<void>;
  /** Stop watching; a pending burst is dropped. Idempotent. */
  close(): void;
}

/** Editor and OS noise: swap and backup files (vim's `.swp`…`.swa`, its `.swx` probe and `4913`), `.DS_Store`, `node_modules`. */
export function isNoise(path: string): boolean {
  const base = path.split(/[\\/]/).pop() ?? path;
  return /(^|[\\/])node_modules([\\/]|$)/.test(path) || /^\.#|~$|\.sw[a-px]$|^\.DS_Store$|^\d+$|\.tmp$/.test(base);
}

/**
 * Watch `dirs` and `files` under `root` and call `onChange` once per burst.
 * @returns the watch; `close()` it at shutdown.
 */
export function watchTree(options: WatchTreeOptions): TreeWatch {
  const debounceMs = options.debounceMs ?? 40;
  /** Paths changed in the current burst, with whether the burst created them and whether it removed them last. */
  let pending = new Map<string, { added: boolean; removed: boolean }>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let closed = false;

  const flush = () => {
    timer = undefined;
    if (closed || pending.size === 0) return;
    if (running) return; // the running call re-flushes when it ends
    // A file made and removed within the burst (`sed -i`'s temporary file, an editor's) is no change.
    const batch = [...pending]
      .filter(([, e]) => !(e.added && e.removed))
      .map(([path]) => path)
      .sort();
    pending = new Map();
    if (batch.length === 0) return;
    running = Promise.resolve()
      .then(() => options.onChange(batch))
      .catch(() => {})
      .finally(() => {
        running = undefined;
        if (pending.size > 0 && !closed) timer = setTimeout(flush, debounceMs);
      });
  };
  const record = (path: string, event: string) => {
    if (closed || isNoise(path) || options.ignore?.(path)) return;
    const seen = pending.get(path);
    const removed = event === 'unlink' || event === 'unlinkDir';
    pending.set(path, { added: seen ? seen.added : event === 'add', removed });
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  };
  const toRelative = (path: string) => relative(options.root, path).split(sep).join('/');
  const watcher = watch([...options.dirs, ...(options.files ?? [])], {
    cwd: options.root,
    ignoreInitial: true,
    // Bursts are gathered here; chokidar's own wait for a re-added file would split them.
    atomic: false,
    // Paths come absolute or relative to the root, depending on chokidar's stage.
    ignored: (path: string) => {
      const rel = path.startsWith(options.root) ? toRelative(path) : path;
      return rel !== '' && (isNoise(rel) || options.ignore?.(rel) === true);
    },
  });
  watcher.on('all', (event, path) => {
    if (event !== 'addDir') record(path.split(sep).join('/'), event);
  });
  watcher.on('error', () => {});
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return {
    ready,
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      void watcher.close();
    },
  };
}
