/**
 * The engine a test run makes its databases on (docs/testing.md "The
 * database server"): PostgreSQL unless `BINDERY_TEST_ENGINE=mariadb`.
 */

/** The engines `bindery/testing` makes test databases on. */
export type TestEngine = 'postgres' | 'mariadb';

const ENGINES: readonly TestEngine[] = ['postgres', 'mariadb'];

/**
 * The engine `BINDERY_TEST_ENGINE` names: `postgres` (the default, also when
 * it is unset or empty) or `mariadb` (a MariaDB or MySQL server).
 * @throws {Error} for another value, naming the ones it takes.
 */
export function testEngine(env: Readonly<Record<string, string | undefined>> = process.env): TestEngine {
  const value = env['BINDERY_TEST_ENGINE']?.trim().toLowerCase();
  if (value === undefined || value === '') return 'postgres';
  if ((ENGINES as readonly string[]).includes(value)) return value as TestEngine;
  throw new Error(`bindery/testing: BINDERY_TEST_ENGINE is "${value}"; it takes ${ENGINES.join(' or ')} (default postgres)`);
}

/** The engine a server URL's scheme names: `mariadb` for `mysql://` and `mariadb://`, else `postgres`. */
export function engineOfUrl(url: string): TestEngine {
  return /^(mysql|mariadb):/i.test(url) ? 'mariadb' : 'postgres';
}
