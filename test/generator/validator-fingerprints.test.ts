/**
 * Validator fingerprints (docs/generator.md "Validator fingerprints"): every
 * route's code in `validators.ts` carries a fingerprint line; `generate` and
 * `--check` reuse the code whose fingerprint matches instead of compiling it again,
 * and still reports any hand edit — to the code, to a fingerprint, to the
 * file's layout — and any schema change as stale. And the guard: the
 * emitter's format version is bumped whenever its code changes.
 */
import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generate } from '../../generator/index.js';
import { fingerprintLine, validatorInputs, VALIDATORS_FORMAT, writtenValidators } from '../../generator/emit/validators/fingerprint.js';
import { fixtureProject, REPO, type TempProject } from './support.js';

const upToDate = { ok: true, diagnostics: [], changed: [], diff: '', warnings: [] };
const stale = ['generated/validators.ts'];

describe('generate | validator fingerprints', () => {
  let project: TempProject;
  let written: string;
  const file = (): string => join(project.root, 'generated/validators.ts');
  const check = () => generate({ root: project.root, check: true, useRecord: false });
  const edit = async (change: (text: string) => string): Promise<void> => {
    const text = await readFile(file(), 'utf8');
    const changed = change(text);
    expect(changed).not.toBe(text);
    await writeFile(file(), changed);
  };

  beforeEach(async () => {
    project = await fixtureProject('full');
    expect((await generate({ root: project.root })).diagnostics).toEqual([]);
    written = await readFile(file(), 'utf8');
  });
  afterEach(() => project.remove());

  it("puts a fingerprint line before each route's code, and --check passes on the written file", async () => {
    const routes = [...written.matchAll(/^export const (\w+): CompiledValidator = /gm)].map((m) => m[1]);
    expect(routes.length).toBeGreaterThan(0);
    expect([...writtenValidators(written).keys()]).toEqual(routes);
    expect(written.match(/^\/\/ fingerprint: [0-9a-f]{32}$/gm)?.length).toBe(routes.length);
    expect(await check()).toEqual(upToDate);
  });

  it('reuses the code of a route whose fingerprint matches instead of compiling it', async () => {
    // Forge a matching fingerprint for edited code: --check takes it as it is (the fingerprint is all it trusts).
    const { line, body } = writtenValidators(written).get('documentsCreate')!;
    const doc = /^\/\*\* (.*) \*\/$/m.exec(body)![1]!;
    const schema = /^const documentsCreate_schema = (.*);$/m.exec(body)![1]!;
    const inputs = validatorInputs('documentsCreate', doc, JSON.stringify(JSON.parse(schema)));
    expect(fingerprintLine(inputs, body)).toBe(line);
    const forged = body.replace('{ "maxLength": 100 }', '{ "maxLength": 101 }');
    await writeFile(file(), written.replace(`${line}\n${body}`, `${fingerprintLine(inputs, forged)}\n${forged}`));
    expect(await check()).toEqual(upToDate);
  });

  it('generate reuses a matching block too; with validators.ts deleted it compiles every route again', async () => {
    const { line, body } = writtenValidators(written).get('documentsCreate')!;
    const doc = /^\/\*\* (.*) \*\/$/m.exec(body)![1]!;
    const schema = /^const documentsCreate_schema = (.*);$/m.exec(body)![1]!;
    const inputs = validatorInputs('documentsCreate', doc, JSON.stringify(JSON.parse(schema)));
    const forged = body.replace('{ "maxLength": 100 }', '{ "maxLength": 101 }');
    const forgedText = written.replace(`${line}\n${body}`, `${fingerprintLine(inputs, forged)}\n${forged}`);
    await writeFile(file(), forgedText);
    expect((await generate({ root: project.root, useRecord: false })).changed).toEqual([]);
    expect(await readFile(file(), 'utf8')).toBe(forgedText);
    await rm(file());
    expect((await generate({ root: project.root, useRecord: false })).changed).toEqual(stale);
    expect(await readFile(file(), 'utf8')).toBe(written);
  });

  it("reports a hand-edited line of a route's code as stale, with the line in the diff", async () => {
    await edit((t) => t.replace('params: { limit: 100 }', 'params: { limit: 99 }'));
    const result = await check();
    expect(result.changed).toEqual(stale);
    expect(result.diff).toMatch(/^-.*params: \{ limit: 99 \}/m);
    expect(result.diff).toMatch(/^\+.*params: \{ limit: 100 \}/m);
    await generate({ root: project.root });
    expect(await readFile(file(), 'utf8')).toBe(written);
  });

  it('reports an edited, removed or duplicated fingerprint line, and a removed route, as stale', async () => {
    const [first, second] = [...written.matchAll(/^\/\/ fingerprint: [0-9a-f]{32}$/gm)].map((m) => m[0]);
    await edit((t) =>
      t.replace(
        first!,
        first!.replace(/.$/, (c) => (c === '0' ? '1' : '0')),
      ),
    );
    expect((await check()).changed).toEqual(stale);
    await writeFile(file(), written.replace(`${first!}\n`, ''));
    expect((await check()).changed).toEqual(stale);
    await writeFile(file(), written.replace(`${second!}\n`, `${first!}\n`));
    expect((await check()).changed).toEqual(stale);
    const { line, body } = writtenValidators(written).get('tokensRevoke')!;
    await writeFile(file(), written.replace(`\n${line}\n${body}`, ''));
    expect((await check()).changed).toEqual(stale);
    await writeFile(file(), written);
    expect(await check()).toEqual(upToDate);
  });

  it('compiles a route alone exactly as in a full run: the diff adds back just the removed block', async () => {
    const { line, body } = writtenValidators(written).get('accountRegister')!;
    const block = `${line}\n${body}\n\n`;
    expect(written).toContain(block);
    await writeFile(file(), written.replace(block, ''));
    const result = await check();
    expect(result.changed).toEqual(stale);
    const added = result.diff
      .split('\n')
      .filter((l) => l.startsWith('+') && !l.startsWith('+++'))
      .map((l) => l.slice(1));
    const removed = result.diff.split('\n').filter((l) => l.startsWith('-') && !l.startsWith('---'));
    expect(removed).toEqual([]);
    expect(added.join('\n')).toBe(block.replace(/\n$/, ''));
  });

  it("reports a changed rule as stale: that route's fingerprint and code change", async () => {
    const schema = join(project.root, 'schema/documents.yaml');
    const text = await readFile(schema, 'utf8');
    await writeFile(schema, text.replace('validate: [required, "max:100", alpha_dash]', 'validate: [required, "max:90", alpha_dash]'));
    expect((await check()).changed).toContain('generated/validators.ts');
    await generate({ root: project.root });
    const after = writtenValidators(await readFile(file(), 'utf8'));
    for (const [name, { line, body }] of writtenValidators(written)) {
      const changed = name === 'documentsCreate';
      expect({ name, changed: after.get(name)!.line !== line }).toEqual({ name, changed });
      expect({ name, changed: after.get(name)!.body !== body }).toEqual({ name, changed });
    }
    expect(await check()).toEqual(upToDate);
  });
});

describe('validator fingerprints | format version', () => {
  // The fingerprints vouch for the code only while the emitter writes the same
  // text for the same inputs. When these files change, decide: if the text
  // they write can change, bump VALIDATORS_FORMAT in fingerprint.ts; then
  // record the new hash and format version here.
  const RECORDED = {
    format: 4,
    hash: '8beffa3697f140e00f263e6e983e35d9a6c23ae8040514b11379fdaafb4c13b8 dfb5201cfeaa9a4df57d4a6977bbcd9a5edd3a4016baecc5b94e852a57aaa743 aa1452b6272f28fc98c6e8770df4173b9a6b7a9d7c3c7f4c747eb5a876b4d6c0 e45b478ad926f915a7abc07b733b88e328fef20b8e6049818e07b8f8302724ae',
  };

  it('is bumped (or confirmed) whenever the validator emitter changes', async () => {
    const hashes = await Promise.all(
      ['emit-validators.ts', 'format-ajv.ts', 'ajv-tokens.ts', 'budget-keywords.ts'].map(async (name) => {
        const text = (await readFile(join(REPO, 'generator/emit/validators', name), 'utf8')).replace(/\r\n/g, '\n');
        return createHash('sha256').update(text).digest('hex');
      }),
    );
    expect(
      { format: VALIDATORS_FORMAT, hash: hashes.join(' ') },
      'generator/emit/validators changed: bump VALIDATORS_FORMAT if the text it writes can change, then update RECORDED',
    ).toEqual(RECORDED);
  });
});
