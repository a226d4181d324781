/**
 * The `storage()` setup step (docs/storage.md; docs/boot.md "Setup steps"):
 * settings, the `storage` migration set (table `storage_pending`), the
 * disks and `ctx.services.storage`, the local disk's signed routes, and the
 * `storage:sweep` command.
 */
import { fileURLToPath } from 'node:url';
import { isAbsolute, resolve } from 'node:path';
import type { SetupStep } from '../app/setup-step.js';
import { RawBody } from '../binding/raw-body.js';
import { unsupportedMediaType } from '../binding/body-errors.js';
import { KeyRing } from '../crypto/key-ring.js';
import type { AnyKysely } from '../db/any-kysely.js';
import type { RequestContext } from '../http/context.js';
import type { FieldPlan, RouteDefinition } from '../routing/route-table.js';
import { noContent, respond } from '../results/result.js';
import { StorageSweepCommand } from './commands/storage-sweep-command.js';
import { receiveDirectUpload } from './direct-uploads.js';
import type { Disk } from './disk.js';
import { LocalDisk } from './local-disk.js';
import { S3Disk } from './s3-disk.js';
import { storageSettings } from './settings.js';
import { Storage } from './storage.js';
import { UrlSigner } from './url-signer.js';

declare module '../http/context.js' {
  interface Services {
    /** Storage disks, uploads and signed URLs; present once `storage()` is set up (docs/storage.md). */
    readonly storage?: Storage;
  }
}

/** The folder of the `storage` migration set. */
export const STORAGE_MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/** Options of {@link storage}. */
export interface StorageStepOptions {
  /** The path prefix of the local disk's signed routes (default `/storage`). */
  readonly prefix?: string;
}

type DownloadInput = { disk: string; object: string; name?: string; type?: string; expires?: string; signature?: string };

/**
 * Files on a storage disk as a setup step.
 *
 * Adds `ctx.services.storage` (a {@link Storage}) with the `local` disk
 * (`STORAGE_LOCAL_ROOT`, default `.data/storage`) and, when
 * `STORAGE_S3_BUCKET` is set, the `s3` disk; new files go to `STORAGE_DISK`.
 * From then on multipart files are streamed to that disk while the request
 * is read. Adds the migration set `storage`, the routes
 * `GET /storage/{disk}/{object}` (signed downloads of the local disk) and
 * `PUT /storage/uploads` (its signed direct uploads), and the command
 * `storage:sweep`.
 *
 * @throws {SettingsError} at boot for a bad `STORAGE_*` setting.
 * @example setup: [cache(), session(), storage(), …]
 */
export function storage(options: StorageStepOptions = {}): SetupStep {
  const prefix = (options.prefix ?? '/storage').replace(/\/+$/, '');
  return {
    name: 'storage',
    call: 'storage()',
    settings: storageSettings,
    migrations: [{ source: 'storage', dir: STORAGE_MIGRATIONS_DIR }],
    commands: [StorageSweepCommand],
    setup(ctx) {
      const s = ctx.settingsOf(storageSettings);
      const signer = new UrlSigner(KeyRing.fromSettings(ctx.settings), ctx.now);
      const appUrl = String(ctx.settings.APP_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
      const root = isAbsolute(s.STORAGE_LOCAL_ROOT) ? s.STORAGE_LOCAL_ROOT : resolve(ctx.app.root, s.STORAGE_LOCAL_ROOT);
      const disks: Disk[] = [new LocalDisk({ name: 'local', root, baseUrl: `${appUrl}${prefix}`, signer })];
      if (s.STORAGE_S3_BUCKET !== undefined) {
        const s3 = new S3Disk({
          name: 's3',
          bucket: s.STORAGE_S3_BUCKET,
          region: s.STORAGE_S3_REGION,
          ...(s.STORAGE_S3_ENDPOINT ? { endpoint: s.STORAGE_S3_ENDPOINT.toString().replace(/\/+$/, '') } : {}),
          forcePathStyle: s.STORAGE_S3_FORCE_PATH_STYLE,
          ...(s.STORAGE_S3_ACCESS_KEY_ID && s.STORAGE_S3_SECRET_ACCESS_KEY
            ? { credentials: { accessKeyId: s.STORAGE_S3_ACCESS_KEY_ID, secretAccessKey: s.STORAGE_S3_SECRET_ACCESS_KEY } }
            : {}),
        });
        disks.push(s3);
        ctx.onClose(() => s3.close());
      }
      const service = new Storage({
        disks,
        defaultDisk: s.STORAGE_DISK,
        db: ctx.database.db as AnyKysely,
        signer,
        urlTtlMs: s.STORAGE_URL_TTL,
        uploadTtlMs: s.STORAGE_UPLOAD_TTL,
        orphanAgeMs: s.STORAGE_ORPHAN_AGE,
        log: ctx.log,
        now: ctx.now,
      });
      ctx.services.storage = service;
      ctx.addRoutes(storageRoutes(prefix), {
        [DOWNLOAD_ROUTE]: async (input: DownloadInput, ctx: RequestContext) => {
          const { range: asked } = ctx.request.headers;
          const ifRange = ctx.request.headers['if-range'];
          const download = await service.openDownload(input.disk, input.object, input, {
            range: asked,
            'if-range': typeof ifRange === 'string' ? ifRange : undefined,
          });
          const { range } = download;
          return respond((reply) => {
            reply
              .header('content-type', download.contentType)
              .header('accept-ranges', 'bytes')
              .header('content-disposition', download.disposition)
              .header('x-content-type-options', 'nosniff')
              .header('cache-control', 'private, max-age=0, no-store');
            if (range === undefined) reply.code(200).header('content-length', download.size);
            else
              reply
                .code(206)
                .header('content-range', `bytes ${range.start}-${range.end}/${download.size}`)
                .header('content-length', range.end - range.start + 1);
            return reply.send(download.stream);
          });
        },
        [UPLOAD_ROUTE]: async (input: { token: string | undefined }, ctx: RequestContext) => {
          const body = ctx.request.body;
          if (!(body instanceof RawBody)) throw unsupportedMediaType(ctx.request.headers['content-type']);
          await receiveDirectUpload(service, input.token ?? '', body.stream);
          return noContent();
        },
      });
    },
  };
}

/** Route names of the local disk's signed routes (outside every middleware group: the signature is the credential). */
const DOWNLOAD_ROUTE = 'storage.download';
const UPLOAD_ROUTE = 'storage.upload';

const text = (key: string, source: 'path' | 'query'): FieldPlan => ({
  key,
  type: { kind: 'string', array: false, nullable: false },
  source,
  name: key,
  rules: [],
});

const base = { group: null, middleware: [], validate: null, output: null, origin: 'storage()' } as const;

/**
 * The two routes under `prefix` (`/storage`): `GET <prefix>/{disk}/{object}`
 * (`object` is the key in base64url; query `name`, `type`, `expires`,
 * `signature`) and `PUT <prefix>/uploads?token=…` (raw body).
 */
function storageRoutes(prefix: string): RouteDefinition[] {
  return [
    {
      ...base,
      name: DOWNLOAD_ROUTE,
      method: 'GET',
      path: `${prefix}/{disk}/{object}`,
      result: 'custom',
      fields: [
        text('disk', 'path'),
        text('object', 'path'),
        text('name', 'query'),
        text('type', 'query'),
        text('expires', 'query'),
        text('signature', 'query'),
      ],
    },
    {
      ...base,
      name: UPLOAD_ROUTE,
      method: 'PUT',
      path: `${prefix}/uploads`,
      result: 'noContent',
      fields: [text('token', 'query')],
      rawBody: true,
    },
  ];
}
