/**
 * What the application supplies to the auth layer (docs/spec.md 2.1: "The
 * application supplies lookups to the auth layer").
 *
 * The auth layer never queries the users table itself: the app says how to
 * find a user and read the fields auth needs, so any user model works.
 */

/**
 * The lookups of an app's users. `U` is the app's user row type.
 *
 * Required: {@link idOf}, {@link passwordHashOf}, {@link findById}, {@link findByLogin}.
 * Optional: remember-token read/write (remember-me needs both, else it
 * answers an error — docs/spec.md 5.2) and the upgraded-hash writer (bcrypt and weak
 * argon2id hashes are replaced after a successful login only when it is
 * supplied — docs/spec.md 5.1 rule 9).
 */
export interface UserProvider<U> {
  /** The user's authentication ID: the decimal string of its primary key (`'42'`). */
  idOf(user: U): string;
  /** The stored password hash (argon2id, or a legacy bcrypt `$2a$/$2b$/$2y$` hash). */
  passwordHashOf(user: U): string;
  /**
   * The user with this authentication ID.
   * @returns `null` for a non-numeric ID or an unknown user ("no such user"); never throws for those.
   */
  findById(id: string): Promise<U | null>;
  /**
   * The user with this login (the email in the reference app). The provider
   * normalizes it (lower case, trimmed), so spellings of one login resolve to
   * the same account.
   * @returns `null` when there is none.
   */
  findByLogin(login: string): Promise<U | null>;
  /** The user's remember token, or `null` when none is set. */
  readRememberToken?(user: U): Promise<string | null>;
  /** Replace the user's remember token (at login with remember, and at logout: every remembered browser is signed out). */
  writeRememberToken?(user: U, token: string): Promise<void>;
  /** Store an upgraded password hash (after a successful login with a bcrypt or weaker argon2id hash). */
  writePasswordHash?(user: U, hash: string): Promise<void>;
}

/** Normalize a login the way the reference app stores emails: trimmed, lower case. */
export function normalizeLogin(login: string): string {
  return login.trim().toLowerCase();
}
