/**
 * What the commands that apply migrations (`migrate`, `start`, the app
 * process of `dev`) tell the generator afterwards: no migration is a draft
 * any more (docs/generator.md "Draft migrations").
 */

/**
 * End the draft migrations of the project at `root`, so the next
 * `bindery generate` appends a migration instead of rewriting one a
 * database now has. Never throws (without the generator, as in a
 * production image, there is nothing to end).
 */
export async function migrationsApplied(root: string): Promise<void> {
  try {
    const { endDraftMigrations } = await import('../../generator/write/draft-migration.js');
    await endDraftMigrations(root);
  } catch {
    // No generator here: no drafts either.
  }
}
