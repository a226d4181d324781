/**
 * Who made a change, and through what (docs/spec.md 5.8, 6.1 rules 9–10): the
 * actor by the attribution order of the execution context, the via and
 * request ID of the work running now, the client IP as `AUDIT_IP` allows.
 */
import { currentContext, resolveActor } from '../context/execution-context.js';
import { AuditActorTooLongError } from './errors.js';
import { maskIp } from './ip.js';
import type { AuditIpMode } from './settings.js';

/** The attribution columns of an entry. */
export interface Attribution {
  readonly actorType: string;
  /** Null for `system`. */
  readonly actorId: string | null;
  readonly viaKind: string | null;
  readonly viaName: string | null;
  readonly requestId: string | null;
  readonly ip: string | null;
  /**
   * What single-row entries keep as their `properties` (the history's
   * `details`): `{ client: { name, version } }` when the work came through a
   * client that names itself (an MCP client, docs/mcp.md "Audit"), else null.
   */
  readonly details: Readonly<Record<string, unknown>> | null;
}

/** Actor IDs are at most this many bytes (docs/spec.md 6.1 rule 9). */
export const MAX_ACTOR_ID_BYTES = 100;

/**
 * Attribute a write made now.
 *
 * Order (docs/spec.md 5.8): the explicit actor (`withActor`), else the signed-in user
 * (or the user a job acts as), else the actor of the work that queued this
 * job or listener, else `system`. Outside any execution context: `system`
 * with no via.
 *
 * @param ipMode `AUDIT_IP`.
 * @throws whatever the signed-in user's loader throws (the write then fails, docs/spec.md 5.8).
 * @throws {AuditActorTooLongError} for an actor ID over 100 bytes.
 */
export async function attribute(ipMode: AuditIpMode): Promise<Attribution> {
  const context = currentContext();
  const actor = await resolveActor(context);
  if (Buffer.byteLength(actor.id) > MAX_ACTOR_ID_BYTES) throw new AuditActorTooLongError(actor.type, actor.id);
  const via = context?.via;
  return {
    actorType: actor.type,
    actorId: actor.id === '' ? null : actor.id,
    viaKind: via?.kind ?? null,
    viaName: via?.name ?? null,
    requestId: context?.requestId ?? null,
    ip: maskIp(context?.ip, ipMode),
    details: via?.client === undefined ? null : { client: { name: via.client.name, version: via.client.version } },
  };
}

/** How an entry's actor reads in the history: `user:42`, `system`, `erased`, `<type>:<id>`. */
export function actorLabel(type: string, id: string | null): string {
  return id === null || id === '' ? type : `${type}:${id}`;
}
