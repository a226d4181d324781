/**
 * Booting an app without serving it (docs/boot.md "Booting for commands"):
 * settings, database, then every setup step — what CLI commands, workers
 * and scripts need to work with the app's services.
 */
import type { Env } from '../config/setting.js';
import type { App } from './define-app.js';
import { openApp, type OpenAppOptions, type OpenedApp } from './open-app.js';
import { runSetupSteps } from './run-setup.js';

/** An app with its settings loaded, its database open and its setup steps run. */
export interface BootedApp extends OpenedApp {
  /** Services the setup steps added (`db` and the steps' own), as handlers see them in `ctx.services`. */
  readonly services: Readonly<Record<string, unknown>>;
  /** Run the steps' close hooks, then close the database. Idempotent. */
  close(): Promise<void>;
}

/**
 * Open `app` and run its setup steps, without an HTTP server.
 * @throws whatever {@link openApp} or a setup step throws (what was opened is closed first).
 * @example
 *   const booted = await bootApp(app, env, out);
 *   try { await prune(booted.services); } finally { await booted.close(); }
 */
export async function bootApp(app: App, env: Env, out: (text: string) => void, options: OpenAppOptions = {}): Promise<BootedApp> {
  const opened = await openApp(app, env, out, options);
  let closeHooks: Array<() => void | Promise<void>> = [];
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      for (const hook of closeHooks)
        await Promise.resolve(hook()).catch((error: unknown) => opened.log.error({ err: error }, 'a close hook failed'));
      await opened.close();
    })();
    return closing;
  };
  try {
    const setup = await runSetupSteps(opened);
    closeHooks = setup.closeHooks;
    return { ...opened, services: setup.services, close };
  } catch (error) {
    await close();
    throw error;
  }
}
