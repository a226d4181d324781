/**
 * Writing a session record to its store within the cookie's size limit
 * (docs/sessions.md "Size"): when the sealed cookie would exceed 4 KB, the
 * old input of a failed form is dropped first (its field errors are kept);
 * when it is still too large, the session is not saved at all. Both are
 * logged as `BINDERY_SESSION_TOO_LARGE` warnings.
 */
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { SessionRecord } from './session-record.js';
import { TOO_LARGE, type SessionClient, type SessionStore } from './session-store.js';

/** What {@link writeRecord} needs besides the record. */
export interface WriteTarget {
  readonly store: SessionStore;
  readonly log: FastifyBaseLogger;
  /** The route whose request wrote the session, for the warnings. */
  readonly route: string;
}

/**
 * Store `record` (revoking the session `revoke` replaced it, if any).
 * @param oldInputKey the flash key of a failed form's old input, dropped first when the cookie would be too large.
 * @returns the cookie value to send, or `undefined` when the session could not be saved (too large; `revoke` is revoked anyway).
 */
export async function writeRecord(
  target: WriteTarget,
  record: SessionRecord,
  revoke: string | null,
  client: SessionClient,
  oldInputKey: string,
): Promise<string | undefined> {
  const { store, log, route } = target;
  let value = await store.write(record, revoke, client);
  if (value === TOO_LARGE && Object.hasOwn(record.flash, oldInputKey)) {
    delete record.flash[oldInputKey];
    log.warn(
      { code: 'BINDERY_SESSION_TOO_LARGE', route },
      'the session cookie would exceed 4 KB: the old input of the failed form was dropped (its errors are kept)',
    );
    value = await store.write(record, revoke, client);
  }
  if (value !== TOO_LARGE) return value;
  log.warn(
    { code: 'BINDERY_SESSION_TOO_LARGE', route },
    'the session cookie would exceed 4 KB: the session was not saved; keep large data out of the session',
  );
  if (revoke !== null) await store.revoke(revoke);
  return undefined;
}

/** Who `request` comes from, for server-side stores' list of sessions (the user agent cut to 512 characters). */
export function sessionClient(request: FastifyRequest): SessionClient {
  const agent = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof agent === 'string' ? agent.slice(0, 512) : null };
}
