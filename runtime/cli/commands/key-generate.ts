/**
 * `bindery key:generate [--show]` (docs/spec.md 5.3 key rotation; docs/cli.md).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { Command, Option } from 'clipanion';
import { parseEnv } from 'node:util';
import { decodeAppKey, generateAppKey } from '../../config/app-key.js';
import { envFilePath, setEnvFileValues } from '../../config/env-file.js';
import { BinderyCommand } from '../../app/base-command.js';
import { ensureEnvFile } from '../env-setup.js';

/** `bindery key:generate [--show]`: writes a fresh `APP_KEY` to `.env`, moving a valid old key to the front of `APP_PREVIOUS_KEYS`. */
export class KeyGenerateCommand extends BinderyCommand {
  static override paths = [['key:generate']];
  static override usage = Command.Usage({
    category: 'Settings',
    description: 'Make a fresh APP_KEY and write it to .env.',
    details: `
      Writes \`APP_KEY=base64:…\` (32 random bytes) into \`.env\`, creating the file when missing. An existing valid key moves to the front of \`APP_PREVIOUS_KEYS\`, so sessions and tokens it encrypted keep working until they expire. Every instance of the app must get the same keys.

      With \`--show\`, the key is only printed.
    `,
    examples: [
      ['Rotate the key in .env', '$0 key:generate'],
      ['Print a key', '$0 key:generate --show'],
    ],
  });

  show = Option.Boolean('--show', false, { description: 'Print a fresh key; change no file.' });

  protected async run(): Promise<number> {
    const key = generateAppKey();
    if (this.show) {
      this.out(`${key}\n`);
      return 0;
    }
    const created = await ensureEnvFile(this.root, { values: { APP_KEY: key } });
    if (created) {
      this.out(`Created .env with fresh values for ${created.generated.join(', ')}.\n`);
    } else {
      const path = envFilePath(this.root);
      const text = await readFile(path, 'utf8');
      const current = parseEnv(text) as Record<string, string>;
      const old = current.APP_KEY?.trim() ?? '';
      const updates: Record<string, string> = { APP_KEY: key };
      let note = '';
      if (old !== '' && decodeAppKey(old).ok) {
        const previous = (current.APP_PREVIOUS_KEYS ?? '')
          .split(',')
          .map((k) => k.trim())
          .filter((k) => k !== '' && k !== old);
        updates.APP_PREVIOUS_KEYS = [old, ...previous].join(',');
        note = ' The previous key moved to APP_PREVIOUS_KEYS, so what it encrypted still decrypts.';
      } else if (old !== '') {
        note = ' The old value was not a valid key and was dropped.';
      }
      await writeFile(path, setEnvFileValues(text, updates));
      this.out(`APP_KEY set in .env.${note}\n`);
    }
    if (this.context.env.APP_KEY) this.err('Note: APP_KEY is also set in the environment, which wins over .env.\n');
    return 0;
  }
}
