/**
 * `bindery db:seed [--app <file>]` (docs/cli.md "db:seed"; docs/database.md "Seeds").
 */
import { Command, Option } from 'clipanion';
import { BinderyCommand } from '../../app/base-command.js';
import { DEFAULT_APP_MODULE, loadApp } from '../../app/load-app.js';

/** `bindery db:seed`: runs `app/seeds/*.ts` in name order in one transaction (exit 1, nothing written, when one fails). */
export class DbSeedCommand extends BinderyCommand {
  static override paths = [['db:seed']];
  static override usage = Command.Usage({
    category: 'Database',
    description: 'Fill the database with the seeds of app/seeds/ (in one transaction).',
    details: `
      Runs each module of \`app/seeds/\` (\`.ts\`, \`.js\`), sorted by file name; each default-exports a function receiving \`{ db, log }\`. All of them run in one transaction: when one throws, nothing any of them wrote stays and the command exits 1 naming the seed. Run \`bindery migrate\` first. Uses \`DATABASE_URL\`, or the embedded PostgreSQL when it is unset.
    `,
    examples: [['Seed', '$0 db:seed']],
  });

  app = Option.String('--app', DEFAULT_APP_MODULE, { description: 'The app module (default app/main.ts).' });

  protected async run(): Promise<number> {
    const env = await this.env();
    const app = await loadApp(this.root, this.app);
    const { openApp } = await import('../../app/open-app.js');
    const { runSeeds } = await import('../../db/seeds.js');
    const opened = await openApp(app, env, this.out);
    try {
      const ran = await runSeeds(opened.db.database.db, this.root, this.out);
      this.out(ran.length === 0 ? 'No seeds in app/seeds/.\n' : `Seeded ${ran.length} file(s) in one transaction.\n`);
      return 0;
    } finally {
      await opened.close();
    }
  }
}
