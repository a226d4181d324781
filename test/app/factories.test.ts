/**
 * Factories on the reference app (generated/factories.ts through the test
 * kit's `t.factories`): built rows pass the routes' validators and are
 * accepted over HTTP; created rows are real rows; references get a row of
 * their own; a second factory set does not collide with the first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootTestKit, type TestKit } from 'bindery/testing';
import { createFactories as factoriesOf } from 'bindery/db';
import app from '../../app/main.js';
import { createFactories, factoryPlans, type Factories } from '../../generated/factories.js';
import type { Handlers } from '../../generated/handlers.js';
import { routes } from '../../generated/routes.js';
import type { Database } from '../../generated/types.js';
import { accountsRegister, documentsCreate, notesCreate } from '../../generated/validators.js';
import { testServerUrl } from '../support/database.js';
import { referenceAppEnv } from '../support/reference-app-env.js';

let t: TestKit<Handlers, Database, Factories>;
beforeAll(async () => {
  t = await bootTestKit<Handlers, Database, Factories>(app, {
    routes,
    factories: createFactories,
    serverUrl: testServerUrl(),
    prefix: 'factories',
    env: { ...referenceAppEnv },
  });
});
afterAll(async () => {
  await t?.close();
});

describe('factories | generated from the schema, on the reference app', () => {
  it("builds rows the routes' validators accept", () => {
    const note = t.factories.Note.build();
    expect(notesCreate({ title: note.title }), JSON.stringify(notesCreate.errors)).toBe(true);
    const doc = t.factories.Document.build();
    expect(documentsCreate({ slug: doc.slug, title: doc.title }), JSON.stringify(documentsCreate.errors)).toBe(true);
    const user = t.factories.User.build();
    expect(user.email).toMatch(/^[^@\s]+@example\.test$/);
    expect(
      accountsRegister({ name: user.name, email: user.email, password: user.password, password_confirmation: user.password }),
      JSON.stringify(accountsRegister.errors),
    ).toBe(true);
  });

  it('creates rows the API then serves, with overrides typed and applied', async () => {
    const note = await t.factories.Note.create({ title: 'Made by a factory', tags: ['kit'] });
    const shown = await t.request('notes.show', { id: note.id });
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ id: note.id, title: 'Made by a factory', tags: ['kit'] });

    const built = t.factories.Note.build();
    const posted = await t.request('notes.create', { title: built.title });
    expect(posted.status).toBe(201);

    const user = await t.factories.User.create();
    const api = await t.withToken(user.id, ['documents:write']);
    const doc = t.factories.Document.build({ owner_id: user.id });
    const created = await api.request('documents.create', { slug: doc.slug, title: doc.title, status: 'published' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ slug: doc.slug, owner_id: user.id, status: 'published' });
  });

  it('creates many rows, overrides by index, unique values distinct across factory sets', async () => {
    const docs = await t.factories.Document.createMany(3, (i) => ({
      owner_id: 1,
      status: (['draft', 'published', 'archived'] as const)[i]!,
    }));
    expect(docs.map((d) => d.status)).toEqual(['draft', 'published', 'archived']);
    const other = createFactories(t.db);
    const more = await other.Document.createMany(3, { owner_id: 1 });
    const slugs = new Set([...docs, ...more].map((d) => d.slug));
    expect(slugs.size).toBe(6);
    const users = await other.User.createMany(2);
    expect(new Set(users.map((u) => u.email)).size).toBe(2);
  });

  it('creates the referenced row when a reference is not given', async () => {
    const plans = {
      User: factoryPlans.User,
      OwnedDocument: {
        table: 'documents',
        fields: { ...factoryPlans.Document.fields, owner_id: { kind: 'integer', references: { resource: 'User', column: 'id' } } },
      },
    } as const;
    const factories = factoriesOf(t.db, plans);
    const before = await t.db
      .selectFrom('users')
      .select(({ fn }) => fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const doc = await factories['OwnedDocument']!.create();
    const owner = await t.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', doc['owner_id'] as number)
      .executeTakeFirst();
    expect(owner).toBeDefined();
    const after = await t.db
      .selectFrom('users')
      .select(({ fn }) => fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n) + 1);
    const given = await factories['OwnedDocument']!.create({ owner_id: owner!.id });
    expect(given['owner_id']).toBe(owner!.id);
    expect(
      Number(
        (
          await t.db
            .selectFrom('users')
            .select(({ fn }) => fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(Number(after.n));
  });
});
