/** The embedded PostgreSQL (docs/database.md "Embedded PostgreSQL"). */
export { startEmbeddedPostgres, type EmbeddedPostgres, type EmbeddedPostgresOptions } from './embedded-postgres.js';
