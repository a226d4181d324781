/**
 * What a page needs from the request's session (docs/pages.md "Page data"):
 * the masked CSRF token, the flashed messages, field errors and old input,
 * and a call once the page is rendered so the session cookie is written
 * with what rendering stored (a fresh session's CSRF token).
 *
 * `runtime/session`'s `Session` implements it; the responder reads it from
 * the request context, so `runtime/results` and `runtime/views` do not
 * depend on the session layer.
 */
export interface PageSession {
  /** The session's CSRF token, masked with a fresh pad (creates the session when there is none). */
  csrfToken(): string;
  /** A value flashed by the previous request (readable for this request only). */
  flashed(key: string): unknown;
  /** Field errors flashed by a failed form (client names, in order); empty when none. */
  readonly errors: Readonly<Record<string, string>>;
  /** The values a failed form posted (never `_token`, `_method` or password-like fields); empty when none. */
  readonly oldInput: Readonly<Record<string, string | string[]>>;
  /** Called by the responder once the page has been rendered (or failed to): writes the session cookie. */
  finishRender(): Promise<void>;
}
