/**
 * Headless Chromium for the browser tests: Debian's `chromium` (installed by
 * scripts/ensure-chromium.mjs, or CHROMIUM_PATH) driven by playwright-core,
 * each run in a fresh profile.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** The Chromium binary the browser tests drive. */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Launch flags: headless, no sandbox (root in containers), nothing that phones home. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A launched browser: its context, its first page (10 s default timeout), and how to close both and drop the profile. */
export interface Browser {
  readonly context: BrowserContext;
  readonly page: Page;
  close(): Promise<void>;
}

/** Launch Chromium in a fresh profile (`--user-data-dir` in a temporary folder). */
export async function launchChromium(): Promise<Browser> {
  // npm test installs it first (pretest): a browser test never skips for want of it, it fails saying how to get it.
  if (!existsSync(CHROMIUM))
    throw new Error(
      `${CHROMIUM} is not installed: run "node scripts/ensure-chromium.mjs" (as root it installs Debian's chromium), or set CHROMIUM_PATH`,
    );
  const profile = await mkdtemp(join(tmpdir(), 'bindery-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      timeout: 30_000,
    });
  } catch (err) {
    await rm(profile, { recursive: true, force: true });
    throw err;
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
