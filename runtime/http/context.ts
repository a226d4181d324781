/**
 * The per-request context handed to handlers and middleware.
 *
 * `Services` is empty here and filled by declaration merging: the generated
 * `generated/types.ts` adds `db: Kysely<Database>`, later concepts (session,
 * auth) add their own members to {@link RequestContext} the same way.
 */
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteDefinition } from '../routing/route-table.js';

/** Application services available to handlers (augmented by generated code and the app). */
// biome-ignore lint/suspicious/noEmptyInterface: empty on purpose, an interface (not a type) so the app and generated code can add members by declaration merging.
export interface Services {}

/** What a handler learns about the client, decided once per request (docs/spec.md 7 rule 2). */
export interface ClientKind {
  /** Problem details rather than an HTML page: `Accept` lists `application/json` (or `+json`), the body is JSON, `X-Requested-With: XMLHttpRequest`, or `Authorization` carries a token (a scheme but `Basic`, `Digest`, `Negotiate`, `NTLM`; docs/errors.md "Who gets problem details, who gets an HTML page"). */
  readonly wantsJson: boolean;
  /** A browser navigation or form post: `Sec-Fetch-Mode: navigate` or `Accept` listing `text/html` (not `*\/*` alone). */
  readonly isBrowser: boolean;
  /** `HX-Request: true`. */
  readonly isHtmx: boolean;
  /** `HX-Boosted: true`. */
  readonly isHtmxBoosted: boolean;
}

/** The context of one request. */
export interface RequestContext {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  /** The matched route (after method override). */
  readonly route: RouteDefinition;
  /** The request ID also sent back in `X-Request-ID`. */
  readonly requestId: string;
  /** Child logger carrying the request ID. */
  readonly log: FastifyBaseLogger;
  readonly client: ClientKind;
  /** Application services (`db`, …). */
  readonly services: Services;
  /**
   * True when the request is a dry run (an MCP tool call with `dryRun: true`,
   * docs/mcp.md "Dry run"): its database writes, audit entries and queued
   * jobs are rolled back after it is answered; a handler skips side effects
   * outside the database (HTTP calls, stored files, mail sent directly).
   */
  readonly dryRun: boolean;
  /**
   * URL path of a named route with its `{param}` wildcards filled (values URL-encoded).
   * @throws {Error} when the route is unknown or a parameter is missing.
   */
  url(route: string, params?: Readonly<Record<string, string | number>>): string;
}
