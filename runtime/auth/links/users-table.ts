/**
 * Where the account links and external sign-in read and write users (docs/spec.md
 * 2.1 column names by default; docs/mail.md "The users table").
 *
 * The auth layer's lookups (`UserProvider`: find by ID or login, password
 * hash) come from the app; the writes of part B — marking an address
 * verified, replacing the password only while it is still the old one,
 * creating the account of a first external sign-in — are single statements
 * on the users table, named here.
 */
import { BinderyError } from '../../errors/bindery-error.js';

/** Table and column names of the users table (defaults: docs/spec.md 2.1). */
export interface LinkUsersTable {
  /** Default `users`. */
  readonly table?: string;
  /** The primary key, whose decimal string is the authentication ID. Default `id`. */
  readonly id?: string;
  /** The display name (written when an external sign-in creates the account). Default `name`. */
  readonly name?: string;
  /** Stored lower-cased. Default `email`. */
  readonly email?: string;
  /** `null` until verified. Default `email_verified_at`. */
  readonly emailVerifiedAt?: string;
  /** The password hash. Default `password`. */
  readonly password?: string;
  /** The preferred language, read for the mails' locale (docs/i18n.md "Mails"); a user without it gets APP_LOCALE. Default `locale`. */
  readonly locale?: string;
  /** Set to the time of each write of the links; `null` when the table has no such column. Default `updated_at`. */
  readonly updatedAt?: string | null;
}

/** {@link LinkUsersTable} with every name filled in. */
export type ResolvedUsersTable = { readonly [K in keyof LinkUsersTable]-?: Exclude<LinkUsersTable[K], undefined> };

const NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Fill in the defaults and check the names.
 * @throws {Error} for a name that is not a lower-case SQL identifier (a programming error).
 */
export function resolveUsersTable(options: LinkUsersTable = {}): ResolvedUsersTable {
  const resolved: ResolvedUsersTable = {
    table: options.table ?? 'users',
    id: options.id ?? 'id',
    name: options.name ?? 'name',
    email: options.email ?? 'email',
    emailVerifiedAt: options.emailVerifiedAt ?? 'email_verified_at',
    password: options.password ?? 'password',
    locale: options.locale ?? 'locale',
    updatedAt: options.updatedAt === undefined ? 'updated_at' : options.updatedAt,
  };
  for (const [key, name] of Object.entries(resolved)) {
    if (name !== null && !NAME.test(name))
      throw new BinderyError('BINDERY_SETUP_INVALID', `links(): users.${key} ${JSON.stringify(name)} is not a lower-case SQL identifier.`);
  }
  return resolved;
}
