/**
 * What the `bindery dev` process sets up once for all the app processes it
 * starts (docs/cli.md "dev — the development loop"): the embedded
 * PostgreSQL (when `DATABASE_URL` is unset) and the app processes'
 * environment, with one port chosen for all of them.
 */
import { join } from 'node:path';

/** The embedded PostgreSQL the dev process owns. */
export interface DevDatabase {
  url(database?: string): string;
  stop(): Promise<void>;
}

/**
 * Start the embedded PostgreSQL when `DATABASE_URL` is unset; started by the dev process so that it
 * outlives each app process (they attach to it).
 * @returns the running server, or undefined when `DATABASE_URL` is set.
 */
export async function startDevDatabase(
  root: string,
  env: Readonly<Record<string, string | undefined>>,
  out: (text: string) => void,
): Promise<DevDatabase | undefined> {
  if (env.DATABASE_URL) return undefined;
  const { startEmbeddedPostgres } = await import('../../db/embedded/index.js');
  const { EMBEDDED_DATA_DIR } = await import('../../app/app-database.js');
  return startEmbeddedPostgres({ dataDir: join(root, EMBEDDED_DATA_DIR), displayDir: EMBEDDED_DATA_DIR, onProgress: out });
}

/**
 * The environment of the app processes: this process's, the command's, and — when `HTTP_ADDR` asks for
 * port 0 ("any free port") — one free port chosen here, so that every app process listens on the same one.
 */
export async function appProcessEnv(
  env: Readonly<Record<string, string | undefined>>,
  commandEnv: Readonly<Record<string, string | undefined>>,
): Promise<NodeJS.ProcessEnv> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...commandEnv };
  const anyPort = /^(.*):0$/.exec(env.HTTP_ADDR?.trim() ?? '');
  if (anyPort) {
    const { freePort } = await import('../../support/free-port.js');
    const host = anyPort[1]!.replace(/^\[|\]$/g, '');
    childEnv.HTTP_ADDR = `${anyPort[1]}:${await freePort(host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host)}`;
  }
  return childEnv;
}

/** The app processes' own progress lines that would repeat on every restart. */
const REPEATED =
  /^(Using the embedded PostgreSQL already running for this project .*|Migrations: nothing to apply\.|Serving \S+ at \S+|Worker running in this process \(.*\)\.|\{.*"msg":"Worker connected and looking for jobs.*\})$/;

/** `text` without the lines an app process prints on every restart. */
export function withoutRepeatedLines(text: string): string {
  return text
    .split(/(?<=\n)/)
    .filter((line) => !REPEATED.test(line.trimEnd()))
    .join('');
}
