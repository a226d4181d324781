/**
 * The audit log's writer strategy is chosen by the database engine's name
 * (docs/audit.md "Engines"); an engine without one is refused, naming it.
 */
import { Kysely, PostgresDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { AuditLog, readHistory } from '../../../../runtime/audit/index.js';
import { writerFor } from '../../../../runtime/audit/writers/for-engine.js';
import { mariadbWriter, mysqlWriter } from '../../../../runtime/audit/writers/mysql.js';
import { postgresWriter } from '../../../../runtime/audit/writers/postgres.js';
import type { AnyKysely } from '../../../../runtime/db/any-kysely.js';
import type { DatabaseEngine } from '../../../../runtime/db/engine.js';

/** An engine that is only a name: choosing a strategy must not touch anything else. */
const engineNamed = (name: string) => ({ name }) as unknown as DatabaseEngine;

describe('writerFor | the strategy by engine name', () => {
  it('gives PostgreSQL its strategy', () => {
    expect(writerFor(engineNamed('postgres'))).toBe(postgresWriter);
    expect(postgresWriter.engine).toBe('postgres');
  });

  it('gives MySQL and MariaDB the MySQL strategy', () => {
    expect(writerFor(engineNamed('mysql'))).toBe(mysqlWriter);
    expect(writerFor(engineNamed('mariadb'))).toBe(mariadbWriter);
    expect([mysqlWriter.engine, mariadbWriter.engine]).toEqual(['mysql', 'mariadb']);
    expect(mariadbWriter.update).toBe(mysqlWriter.update);
  });

  it.each(['sqlite', 'mssql'])('refuses %s with BINDERY_AUDIT_ENGINE_UNSUPPORTED naming the engine', (name) => {
    expect(() => writerFor(engineNamed(name))).toThrow(
      expect.objectContaining({
        name: 'AuditEngineError',
        code: 'BINDERY_AUDIT_ENGINE_UNSUPPORTED',
        message: expect.stringContaining(`"${name}"`),
      }),
    );
  });

  it('an AuditLog on such an engine is refused when it is made', () => {
    const database = { db: {} as AnyKysely, engine: engineNamed('sqlite') };
    expect(() => new AuditLog({ database })).toThrow(
      expect.objectContaining({ code: 'BINDERY_AUDIT_ENGINE_UNSUPPORTED', message: expect.stringContaining('"sqlite"') }),
    );
  });

  it('readHistory refuses a Kysely instance connectDatabase did not make (its engine is unknown)', async () => {
    const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: {} as never }) }) as AnyKysely;
    await expect(readHistory(db, 'documents', '1')).rejects.toMatchObject({ code: 'BINDERY_AUDIT_ENGINE_UNSUPPORTED' });
  });
});
