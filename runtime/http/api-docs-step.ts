/**
 * The API document served (docs/http.md "API docs"): `GET /openapi.json`
 * (the generated OpenAPI 3.1 document) and `GET /docs`, an API reference
 * page rendered in the browser by Redoc's standalone bundle — served from
 * the app itself (no CDN: it works offline), under a Content-Security-Policy
 * of its own.
 *
 * On by default except when `APP_ENV=production`, where `API_DOCS=true`
 * turns it on.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { SetupStep } from '../app/setup-step.js';
import { defineSettings } from '../config/define-settings.js';
import { booleanSetting } from '../config/parsers.js';
import { appEnvironment } from '../config/core-settings.js';
import { devToolMissing, isMissingPackage } from '../support/dev-tools.js';
import { BinderyError } from '../errors/bindery-error.js';
import { respond } from '../results/result.js';
import type { RouteDefinition } from '../routing/route-table.js';
import type { RouteHandler } from './handler.js';

/** The settings declaration of the `apiDocs()` step. */
export const apiDocsSettings = defineSettings({
  API_DOCS: {
    description:
      'Serve the OpenAPI document at /openapi.json and the API reference page at /docs. Default: on, except with APP_ENV=production.',
    parser: booleanSetting(),
    default: (env) => (appEnvironment(env) === 'production' ? 'false' : 'true'),
  },
});

/**
 * The policy of the docs page: scripts and everything else from this origin
 * only; inline styles (Redoc's styled components write `<style>` elements);
 * the search index's worker from a `blob:` URL.
 */
export const API_DOCS_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

/** Options of {@link apiDocs}. */
export interface ApiDocsOptions {
  /** The OpenAPI document, relative to the app root or absolute (default `generated/openapi.json`). */
  readonly document?: string;
  /** URL of the document (default `/openapi.json`). */
  readonly documentPath?: string;
  /** URL of the reference page (default `/docs`); its script is served under it. */
  readonly pagePath?: string;
}

/**
 * Serve the app's OpenAPI document and an API reference page of it.
 *
 * Adds the setting `API_DOCS` and, when it is on, three GET routes outside
 * every middleware group: `/openapi.json` (`application/json`, `no-cache`
 * with an `ETag`; re-read at every request in development, so a
 * `bindery generate` shows at once), `/docs` (the page, with its CSP) and
 * `/docs/redoc.<hash>.js` (Redoc's standalone bundle from node_modules,
 * cacheable for a year).
 *
 * @throws {BinderyError} `BINDERY_API_DOCS_UNAVAILABLE` at boot when the document or the bundle cannot be read;
 *   `BINDERY_TOOL_MISSING` when the `redoc` package is not installed (a devDependency of the project).
 * @example setup: [cache(), session(), apiDocs()]
 */
export function apiDocs(options: ApiDocsOptions = {}): SetupStep {
  const documentPath = options.documentPath ?? '/openapi.json';
  const pagePath = (options.pagePath ?? '/docs').replace(/\/+$/, '');
  return {
    name: 'api-docs',
    call: 'apiDocs()',
    settings: apiDocsSettings,
    async setup(ctx) {
      if (!ctx.settingsOf(apiDocsSettings).API_DOCS) return;
      const file = resolve(ctx.app.root, options.document ?? 'generated/openapi.json');
      const development = ctx.settings['APP_ENV'] === 'development';
      const load = async (): Promise<{ body: string; etag: string }> => {
        const body = await readFile(file, 'utf8');
        return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
      };
      let bundle: Buffer;
      let cached: { body: string; etag: string };
      try {
        cached = await load();
        JSON.parse(cached.body);
        bundle = await readFile(redocBundle(ctx.app.root));
      } catch (error) {
        if (isMissingPackage(error, 'redoc'))
          throw devToolMissing('redoc', {
            task: 'The API reference page (API_DOCS is on)',
            alternative: ', or set API_DOCS=false',
            cause: error,
          });
        throw new BinderyError(
          'BINDERY_API_DOCS_UNAVAILABLE',
          `API_DOCS is on, but the API docs cannot be served: ${(error as Error).message}. Run "bindery generate" (it writes ${options.document ?? 'generated/openapi.json'}), or set API_DOCS=false.`,
          { cause: error },
        );
      }
      const scriptPath = `${pagePath}/redoc.${createHash('sha256').update(bundle).digest('hex').slice(0, 16)}.js`;
      const page = docsPage(documentPath, scriptPath, ctx.app.name);
      const route = (name: string, path: string): RouteDefinition => ({
        name,
        method: 'GET',
        path,
        group: null,
        middleware: [],
        result: 'custom',
        fields: [],
        validate: null,
        output: null,
        origin: 'apiDocs()',
      });
      const handlers: Record<string, RouteHandler<Record<string, never>, unknown>> = {
        'apiDocs:document': async (_input, rc) => {
          const doc = development ? await load() : cached;
          return respond((reply) => {
            reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'no-cache').header('etag', doc.etag);
            if (rc.request.headers['if-none-match'] === doc.etag) return reply.code(304).send();
            return reply.send(doc.body);
          });
        },
        'apiDocs:page': () =>
          respond((reply) =>
            reply
              .header('content-type', 'text/html; charset=utf-8')
              .header('content-security-policy', API_DOCS_CSP)
              .header('cache-control', 'no-cache')
              .send(page),
          ),
        'apiDocs:script': () =>
          respond((reply) =>
            reply
              .header('content-type', 'text/javascript; charset=utf-8')
              .header('cache-control', 'public, max-age=31536000, immutable')
              .send(bundle),
          ),
      };
      ctx.addRoutes(
        [route('apiDocs:document', documentPath), route('apiDocs:page', pagePath), route('apiDocs:script', scriptPath)],
        handlers,
      );
    },
  };
}

/** Redoc's standalone bundle: the app's `redoc` (a devDependency), else one bindery can resolve. */
function redocBundle(root: string): string {
  const file = 'redoc/bundles/redoc.standalone.js';
  try {
    return createRequire(resolve(root, 'package.json')).resolve(file);
  } catch {
    return createRequire(import.meta.url).resolve(file);
  }
}

/** The page: Redoc renders the `<redoc spec-url>` element by itself once its bundle has loaded (no inline script). */
function docsPage(documentPath: string, scriptPath: string, appName: string): string {
  const title = `${appName} API reference`.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${title}</title>
  <link rel="icon" href="data:,">
</head>
<body>
  <redoc spec-url="${documentPath}" hide-download-button="false"></redoc>
  <noscript><p>The API reference needs JavaScript; the document itself is at <a href="${documentPath}">${documentPath}</a>.</p></noscript>
  <script src="${scriptPath}"></script>
</body>
</html>
`;
}
