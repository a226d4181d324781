/**
 * Demo data for the reference app (`bindery db:seed`, docs/database.md
 * "Seeds"): a user who can sign in as demo@example.com / demo-password,
 * three notes, and three documents of that user, one per status.
 */
import { PasswordHasher } from 'bindery/auth';
import type { Seed } from 'bindery/db';
import { createFactories } from '../../generated/factories.js';
import type { Database } from '../../generated/types.js';

const seed: Seed<Database> = async ({ db, log }) => {
  const factories = createFactories(db);
  const email = 'demo@example.com';
  const existing = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  const user =
    existing ??
    (await factories.User.create({
      name: 'Demo User',
      email,
      password: await new PasswordHasher().hash('demo-password'),
      email_verified_at: new Date(),
    }));
  const notes = await factories.Note.createMany(3, (i) => ({ title: `Welcome note ${i + 1}`, tags: ['demo'] }));
  const statuses = ['draft', 'published', 'archived'] as const;
  const documents = await factories.Document.createMany(3, (i) => ({
    owner_id: user.id,
    title: `A ${statuses[i]} document`,
    status: statuses[i]!,
  }));
  log(`user ${email} (id ${user.id}), ${notes.length} notes, ${documents.length} documents`);
};

export default seed;
