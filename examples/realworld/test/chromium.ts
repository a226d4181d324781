/**
 * Headless Chromium for the browser test, driven by playwright-core:
 * `CHROMIUM_PATH`, else the system's `/usr/bin/chromium` (Debian's
 * `chromium` package), each run in a fresh profile. When neither is
 * there the browser test fails saying how to get it (`npm test` installs it
 * first: its pretest runs the repository's scripts/ensure-chromium.mjs).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** The Chromium binary. */
export const CHROMIUM = process.env['CHROMIUM_PATH'] || '/usr/bin/chromium';

/** A launched browser: its context, its first page, and how to close both and drop the profile. */
export interface Browser {
  readonly context: BrowserContext;
  readonly page: Page;
  close(): Promise<void>;
}

/**
 * Launch Chromium headless (no sandbox: root in containers; nothing that
 * phones home) in a fresh profile.
 * @throws {Error} when the Chromium binary is not installed (how to get it in the message).
 * @param hostRules Chromium's `--host-resolver-rules`, e.g. `MAP localhost:4100 127.0.0.1:38117` to serve an origin from another port.
 */
export async function launchChromium(hostRules?: string): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `${CHROMIUM} is not installed: run "node ../../scripts/ensure-chromium.mjs" (as root it installs Debian's chromium), or set CHROMIUM_PATH`,
    );
  const profile = await mkdtemp(join(tmpdir(), 'conduit-chromium-'));
  const args = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'];
  if (hostRules !== undefined) args.push(`--host-resolver-rules=${hostRules}`);
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args, timeout: 30_000 });
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(10_000);
  return {
    context,
    page,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
