/**
 * One held mysql2 connection as a seam connection (`EngineConnection`):
 * statements, the server's named locks (`GET_LOCK`, `RELEASE_LOCK`; held by
 * the session, counted when taken twice, as PostgreSQL's advisory locks),
 * and its release.
 */
import type { PoolConnection } from 'mysql2';
import type { EngineConnection, RunOptions } from '../../engine.js';
import { resultOf, send } from './statements.js';

/** What a held connection needs of its engine. */
export interface HeldConnectionOptions {
  /** The server-wide name of a lock of this database. */
  readonly lockName: (name: string) => string;
  /** How long `lock` waits (seconds). */
  readonly lockWaitSeconds: number;
  /** Hand the connection back (`discard`: end it). */
  readonly giveBack: (discard: boolean) => void;
}

/** `connection` as a seam connection. Releasing it twice throws (it would be handed out twice). */
export function connectionOf(connection: PoolConnection, options: HeldConnectionOptions): EngineConnection {
  let released = false;
  const lockResult = async (statement: string, name: string, ...more: unknown[]): Promise<unknown> => {
    const { rows } = resultOf<{ ok: unknown }>(await send(connection, statement, [options.lockName(name), ...more], false));
    return rows[0]?.ok;
  };
  return {
    async run<R>(text: string, parameters: readonly unknown[] = [], runOptions?: RunOptions) {
      return resultOf<R>(await send(connection, text, parameters, runOptions?.prepare === true));
    },
    async tryLock(name) {
      return Number(await lockResult('SELECT GET_LOCK(?, 0) AS ok', name)) === 1;
    },
    async lock(name) {
      const ok = await lockResult('SELECT GET_LOCK(?, ?) AS ok', name, options.lockWaitSeconds);
      if (Number(ok) !== 1) throw new Error(`GET_LOCK of "${name}" gave ${String(ok)}: the lock was not taken.`);
    },
    async unlock(name) {
      await lockResult('SELECT RELEASE_LOCK(?) AS ok', name);
    },
    release(discard) {
      if (released) throw new Error('This connection was released already.');
      released = true;
      options.giveBack(discard !== undefined && discard !== false);
    },
  };
}
