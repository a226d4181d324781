/**
 * API tokens (docs/spec.md 2.2, 5.5; docs/tokens.md): creating, listing,
 * revoking and checking the bearer tokens of users. `ctx.services.apiTokens`,
 * set up by the `tokens()` step.
 *
 * Table `api_tokens` (migration set `auth`). A token's plain form
 * `<id>|<secret>` is returned once, by {@link ApiTokens.create}; only the
 * SHA-256 of the secret is stored. Revoking deletes the row. Last use is
 * written at most once a minute per token, by a conditional update, so
 * several instances together still write at most once.
 */
import type { Generated, Kysely, Selectable } from 'kysely';
import { compiledQuery } from '../../db/compiled-query.js';
import { insertReturning } from '../../db/portable-writes.js';
import { ValidationError } from '../../errors/validation-error.js';
import { formatToken, hashSecret, newSecret, parseToken, secretMatches } from './token-format.js';
import type { AnyKysely } from '../../db/any-kysely.js';

/** Row of `api_tokens`. */
export interface ApiTokensTable {
  id: Generated<number>;
  user_id: string;
  name: string;
  token_hash: string;
  /** JSON list of strings (a JSON column); written as JSON text. */
  abilities: string[];
  last_used_at: Date | null;
  expires_at: Date | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** A row of `api_tokens` as selected: what a route authorized by a `tokens` policy gets as its target (docs/authorization.md). */
export type ApiTokenRow = Selectable<ApiTokensTable>;

/** The database seen by the tokens. */
export interface ApiTokensDatabase {
  api_tokens: ApiTokensTable;
}

/** A token as listed (never its secret nor its hash). */
export interface ApiToken {
  readonly id: number;
  /** The owner's authentication ID. */
  readonly userId: string;
  readonly name: string;
  readonly abilities: readonly string[];
  readonly lastUsedAt: Date | null;
  /** `null`: never expires. */
  readonly expiresAt: Date | null;
  readonly createdAt: Date;
}

/** What {@link ApiTokens.create} returns: the plain token, to show once, and the token. */
export interface NewApiToken {
  /** `<id>|<secret>`: shown once, never stored. */
  readonly plain: string;
  readonly token: ApiToken;
}

/** Options of {@link ApiTokens.create}. */
export interface CreateTokenOptions {
  /** Required, at most 100 characters (trimmed). */
  readonly name: string;
  /** What the token may do, e.g. `['profile:read']`. Default none. */
  readonly abilities?: readonly string[];
  /** Lifetime in ms; absent: the token never expires. */
  readonly lifetimeMs?: number;
}

/** The longest token name, in characters. */
export const TOKEN_NAME_MAX = 100;
/** Last use is written at most once per this many ms. */
export const LAST_USED_INTERVAL_MS = 60_000;

const ABILITY = /^[A-Za-z0-9_.*-]+(:[A-Za-z0-9_.*-]+)*$/;

/**
 * The API tokens of an app's users.
 * @example
 *   const { plain } = await apiTokens.create(userId, { name: 'CLI', abilities: ['profile:read'], lifetimeMs: 90 * 86_400_000 });
 */
export class ApiTokens {
  readonly #db: Kysely<ApiTokensDatabase>;
  readonly #now: () => number;

  /**
   * @param db the app's database.
   * @param now clock in ms since the epoch (default `Date.now`).
   */
  constructor(db: AnyKysely, now: () => number = Date.now) {
    this.#db = db as Kysely<ApiTokensDatabase>;
    this.#now = now;
  }

  /**
   * Create a token for `userId`.
   * @throws {ValidationError} on `name` (empty or longer than 100 characters) or `abilities` (not words like `profile:read`), or on `lifetime` (not a positive number of ms).
   */
  async create(userId: string, options: CreateTokenOptions): Promise<NewApiToken> {
    const name = options.name.trim();
    if (name === '') throw new ValidationError({ name: 'The token needs a name.' });
    if ([...name].length > TOKEN_NAME_MAX)
      throw new ValidationError({ name: `The token name may have at most ${TOKEN_NAME_MAX} characters.` });
    const abilities = [...new Set(options.abilities ?? [])];
    const bad = abilities.find((a) => !ABILITY.test(a));
    if (bad !== undefined)
      throw new ValidationError({ abilities: `${JSON.stringify(bad)} is not an ability; use words such as profile:read.` });
    const lifetime = options.lifetimeMs;
    if (lifetime !== undefined && !(Number.isFinite(lifetime) && lifetime > 0))
      throw new ValidationError({ lifetime: 'The lifetime must be a positive duration.' });
    const secret = newSecret();
    const now = this.#now();
    const row = await insertReturning(this.#db, 'api_tokens', {
      user_id: userId,
      name,
      token_hash: hashSecret(secret),
      abilities: JSON.stringify(abilities) as unknown as string[],
      last_used_at: null,
      expires_at: lifetime === undefined ? null : new Date(now + lifetime),
      created_at: new Date(now),
      updated_at: new Date(now),
    });
    return { plain: formatToken(row.id, secret), token: toApiToken(row) };
  }

  /** The tokens of `userId`, newest first (expired ones too, with their expiry). */
  async list(userId: string): Promise<ApiToken[]> {
    const rows = await tokensOf(this.#db, userId);
    return rows.map(toApiToken);
  }

  /**
   * Revoke (delete) the token `tokenId` of `userId`. Another user's token,
   * an unknown one or a malformed ID changes nothing, and answers the same:
   * `false`.
   * @returns whether a token was revoked.
   */
  async revoke(userId: string, tokenId: string | number): Promise<boolean> {
    const id = String(tokenId);
    if (!/^[1-9][0-9]{0,14}$/.test(id)) return false;
    const result = await this.#db.deleteFrom('api_tokens').where('id', '=', Number(id)).where('user_id', '=', userId).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** Revoke every token of `userId` (at password reset). @returns how many. */
  revokeAll(userId: string): Promise<number> {
    return this.revokeAllIn(this.#db, userId);
  }

  /** {@link revokeAll} on `db`, e.g. inside the transaction that changes the password. */
  readonly revokeAllIn = async (db: AnyKysely, userId: string): Promise<number> => {
    const result = await (db as Kysely<ApiTokensDatabase>).deleteFrom('api_tokens').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  };

  /**
   * The token a plain `<id>|<secret>` names, if it is valid now.
   * @returns `null` for a malformed token, an unknown ID, a wrong secret or an expired token (never throws for those).
   */
  async check(plain: string): Promise<ApiToken | null> {
    const parsed = parseToken(plain);
    if (parsed === null) return null;
    const [row] = await tokenById(this.#db, Number(parsed.id));
    if (row === undefined || !secretMatches(parsed.secret, row.token_hash)) return null;
    if (row.expires_at !== null && row.expires_at.getTime() <= this.#now()) return null;
    return toApiToken(row);
  }

  /**
   * Whether {@link touch} would write: the token's last use is unknown or at
   * least a minute old. Lets a caller skip the call (and its promise) on
   * most requests.
   * @param now ms since the epoch (default: this instance's clock).
   */
  touchDue(token: ApiToken, now: number = this.#now()): boolean {
    return token.lastUsedAt === null || now - token.lastUsedAt.getTime() >= LAST_USED_INTERVAL_MS;
  }

  /**
   * Record that `token` was used now — at most once a minute: nothing is
   * written when its last use is less than a minute old, and the update is
   * conditional, so concurrent requests write once.
   * @returns whether the row was written.
   */
  async touch(token: ApiToken): Promise<boolean> {
    const now = this.#now();
    if (!this.touchDue(token, now)) return false;
    const result = await this.#db
      .updateTable('api_tokens')
      .set({ last_used_at: new Date(now) })
      .where('id', '=', token.id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', new Date(now - LAST_USED_INTERVAL_MS))]))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}

/** A user's tokens, newest first: on every page that lists them, so compiled once. */
const tokensOf = compiledQuery((db, userId: string) =>
  (db as Kysely<ApiTokensDatabase>).selectFrom('api_tokens').selectAll().where('user_id', '=', userId).orderBy('id', 'desc'),
);

/** The token row by ID: asked on every token-authenticated request, so compiled once (docs/database.md "Compiled queries"). */
const tokenById = compiledQuery((db, id: number) =>
  (db as Kysely<ApiTokensDatabase>).selectFrom('api_tokens').selectAll().where('id', '=', id),
);

function toApiToken(row: {
  id: number;
  user_id: string;
  name: string;
  abilities: unknown;
  last_used_at: Date | null;
  expires_at: Date | null;
  created_at: Date;
}): ApiToken {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    abilities: Array.isArray(row.abilities) ? row.abilities.filter((a): a is string => typeof a === 'string') : [],
    lastUsedAt: row.last_used_at,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
  };
}
