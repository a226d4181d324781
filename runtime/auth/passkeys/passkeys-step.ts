/**
 * The `passkeys()` setup step (docs/boot.md "Setup steps"; docs/auth.md
 * "Passkeys").
 */
import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { SetupStep } from '../../app/setup-step.js';
import type { AssetManifest } from '../../assets/asset-manifest.js';
import { assetRoutes } from '../../assets/asset-routes.js';
import type { AuthService } from '../auth-service.js';
import { PasskeyStore } from './passkey-store.js';
import { Passkeys } from './passkeys.js';

declare module '../../http/context.js' {
  interface Services {
    /** Passkeys (WebAuthn); present once `passkeys()` is set up. */
    readonly passkeys?: Passkeys;
  }
}

/** The folder of the `passkeys` migration set. */
export const PASSKEYS_MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
/** The browser script's path among the assets: pages load it with `it.asset('bindery/passkeys.js')`. */
export const PASSKEYS_SCRIPT = 'bindery/passkeys.js';

/** Options of {@link passkeys}. */
export interface PasskeysStepOptions {
  /** The relying party's name authenticators show (default: the app's name). */
  readonly rpName?: string;
  /**
   * Require user verification — the authenticator's PIN, fingerprint or face
   * check (WebAuthn's UV flag) — at sign-in and registration (default
   * true): a passkey sign-in skips both the password and the two-factor
   * code, so possession of the authenticator alone must not be enough.
   * `false` asks for it (`preferred`) but accepts a user who is only
   * present (e.g. security keys without a PIN); docs/auth.md "Passkeys".
   */
  readonly requireUserVerification?: boolean;
  /** Clock in ms since the epoch (default the app's, `ctx.now`). */
  readonly now?: () => number;
}

/**
 * Passkeys (`ctx.services.passkeys`): WebAuthn registration and
 * usernameless sign-in with @simplewebauthn/server, the relying party taken
 * from `APP_URL` (RP ID its host name, the only origin accepted its
 * origin); credentials in the migration set `passkeys` (tables
 * `bindery_passkeys`, `bindery_passkey_users`); and the browser script
 * served by the assets as `bindery/passkeys.js`. User verification is
 * required unless `requireUserVerification: false`. Needs `auth()` and
 * `assets()` before it.
 *
 * @example setup: [cache(), session(), auth({ users }), assets(), passkeys()]
 */
export function passkeys(options: PasskeysStepOptions = {}): SetupStep {
  return {
    name: 'passkeys',
    call: 'passkeys()',
    requires: [
      { name: 'auth', call: 'auth()' },
      { name: 'assets', call: 'assets()' },
    ],
    migrations: [{ source: 'passkeys', dir: PASSKEYS_MIGRATIONS_DIR }],
    async setup(ctx) {
      const appUrl = ctx.settings.APP_URL as URL;
      if (ctx.givenSettings.has('APP_URL') && isIP(appUrl.hostname.replace(/^\[|\]$/g, '')) !== 0) {
        // Browsers refuse an IP address as the relying party: every passkey
        // ceremony would fail with a browser error, not one of ours. Said of
        // a value the operator chose, not of the default a first run has
        // (docs/settings.md `APP_URL`).
        ctx.log.warn(
          `passkeys: APP_URL (${appUrl.origin}) names an IP address, which cannot be a WebAuthn relying party; open the app as http://localhost:${appUrl.port || '80'} with APP_URL set to it (docs/auth.md "Passkeys")`,
        );
      }
      const manifest = ctx.services.assets as AssetManifest;
      const script = await readFile(new URL('./browser/passkeys.js', import.meta.url));
      const served = assetRoutes({ assets: [manifest.add(PASSKEYS_SCRIPT, script)] });
      ctx.addRoutes(served.routes, served.handlers);
      ctx.services.passkeys = new Passkeys({
        auth: ctx.services.auth as AuthService,
        store: new PasskeyStore(ctx.database.db),
        rpName: options.rpName ?? ctx.app.name,
        rpId: appUrl.hostname,
        origin: appUrl.origin,
        requireUserVerification: options.requireUserVerification ?? true,
        services: ctx.services,
        now: options.now ?? ctx.now,
      });
    },
  };
}
