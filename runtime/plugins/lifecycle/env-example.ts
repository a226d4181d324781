/**
 * Appending a plugin's settings to `.env.example` (`bindery add`; docs/spec.md 9
 * "appends its settings to the example environment file").
 */

/** Names set or shown in an env file: `NAME=…` and `# NAME=…` lines. */
export function envFileNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(?:#\s*)?(?:export\s+)?([A-Z][A-Z0-9_]*)\s*=/.exec(line);
    if (m) names.add(m[1]!);
  }
  return names;
}

/**
 * `current` with the block of `pluginsEnv` output appended, leaving out
 * settings the file already has (and the whole block when it has them all).
 * @param block the text of `bindery plugins:env <plugin>`: `# <plugin>`, then per setting a comment line and `NAME=`.
 * @returns the new text and the names appended.
 */
export function appendEnvBlock(current: string, block: string): { text: string; added: string[] } {
  const have = envFileNames(current);
  const lines = block.replace(/\n$/, '').split('\n');
  const title = lines[0] ?? '';
  const kept: string[] = [];
  const added: string[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const setting = /^([A-Z][A-Z0-9_]*)=/.exec(line)?.[1];
    if (setting !== undefined) {
      if (have.has(setting)) continue;
      const comment = lines[i - 1];
      if (comment?.startsWith('# ') && i - 1 > 0) kept.push(comment);
      kept.push(line);
      added.push(setting);
    }
  }
  if (added.length === 0) return { text: current, added };
  const sep = current === '' ? '' : current.endsWith('\n\n') ? '' : current.endsWith('\n') ? '\n' : '\n\n';
  return { text: `${current}${sep}${title}\n${kept.join('\n')}\n`, added };
}
