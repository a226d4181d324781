/**
 * The database engine of a new project (`bindery new --database`): what the
 * templates and `.env.example` say for it. The engine itself is recorded in
 * the project's package.json (`"bindery": { "databases": [...] }`), which
 * the generator writes the migrations by (docs/generator.md "Databases").
 */

/** The engines `bindery new --database` takes. */
export const NEW_PROJECT_DATABASES = ['postgres', 'mysql'] as const;

/** An engine of {@link NEW_PROJECT_DATABASES}. */
export type NewProjectDatabase = (typeof NEW_PROJECT_DATABASES)[number];

/** The `DATABASE_URL` of a new MySQL project: a server on this machine, a database named after the project. */
export function mysqlDatabaseUrl(name: string): string {
  const database = name
    .replace(/^@[^/]*\//, '')
    .replace(/[^A-Za-z0-9_]/g, '_')
    .slice(0, 64);
  return `mysql://root@127.0.0.1:3306/${database}`;
}

/** The README's and the templates' words for the project's engine. */
export function databaseValues(options: { readonly name: string; readonly database?: NewProjectDatabase }): Record<string, string> {
  if (options.database === 'mysql') {
    const url = mysqlDatabaseUrl(options.name);
    return {
      databaseStart: `npm install && npm start     # DATABASE_URL=${url} (.env), then http://127.0.0.1:3000`,
      databaseOwn: `to name your MySQL (8.0.16 or later) or MariaDB (10.6 or later) server and database — \`.env.example\` has \`${url}\`; create the database first (\`CREATE DATABASE … CHARACTER SET utf8mb4 COLLATE utf8mb4_bin\`). The migrations are MySQL's (\`generated/migrations/mysql/\`, \`"bindery": { "databases": ["mysql"] }\` in package.json); there is no embedded MySQL`,
      databaseProduction: 'a MySQL or MariaDB server',
      databaseUrlExample: 'mysql://user:password@host:3306/db',
      testServerEngine: "{ engine: 'mariadb' }",
      testServerWords:
        "A MySQL or MariaDB server for the test run: MARIADB_URL when set, else DATABASE_URL's server, else a throwaway MariaDB (mariadbd installed); each test file makes its own database on it.",
    };
  }
  return {
    databaseStart: 'npm install && npm start     # an embedded PostgreSQL under .data/, then http://127.0.0.1:3000',
    databaseOwn: 'to use your own PostgreSQL instead of the embedded one',
    databaseProduction: 'a PostgreSQL server',
    databaseUrlExample: 'postgres://user:password@host:5432/db',
    testServerEngine: '',
    testServerWords: 'One PostgreSQL server for the test run: DATABASE_URL when set, else an embedded one in a temporary folder.',
  };
}

/**
 * The title of `.env.example` and the values it sets, for the project's
 * engine: a MySQL project's `DATABASE_URL` is set (there is no embedded MySQL).
 */
export function envExampleIntro(options: { readonly name: string; readonly database?: NewProjectDatabase }): {
  readonly title: string;
  readonly values?: Readonly<Record<string, string>>;
} {
  const mysql = options.database === 'mysql';
  const title = `Settings of ${options.name}: copy to .env (or let "npm start" do it) and adjust.\nReal environment variables win over .env. An empty value counts as unset.\n${
    mysql
      ? "DATABASE_URL names the MySQL or MariaDB server and database (create it first): the migrations are MySQL's, and there is no embedded MySQL."
      : 'Without DATABASE_URL, "npm start" runs an embedded PostgreSQL under .data/.'
  }`;
  return { title, ...(mysql ? { values: { DATABASE_URL: mysqlDatabaseUrl(options.name) } } : {}) };
}
