/**
 * Adding a header name to `Vary` without repeating it (docs/spec.md 4.6:
 * `Vary: Cookie` on session responses, `Vary: HX-Request` for htmx).
 */
import type { FastifyReply } from 'fastify';

/**
 * Add `name` to the reply's `Vary` header, keeping what is there; nothing
 * when it is already listed (any case) or `Vary` is `*`. Never throws.
 * @example addVary(reply, 'Cookie') // Vary: Accept-Encoding → Vary: Accept-Encoding, Cookie
 */
export function addVary(reply: FastifyReply, name: string): void {
  const current = reply.getHeader('vary');
  if (current === undefined || current === '') {
    reply.header('vary', name);
    return;
  }
  const text = Array.isArray(current) ? current.join(', ') : String(current);
  const lower = name.toLowerCase();
  for (const part of text.split(',')) {
    const p = part.trim().toLowerCase();
    if (p === '*' || p === lower) return;
  }
  reply.header('vary', `${text}, ${name}`);
}
