/**
 * Settings of storage (docs/storage.md "Settings"), loaded with the core
 * settings by the `storage()` step: a bad value stops the boot naming it.
 */
import { defineSettings } from '../config/define-settings.js';
import { booleanSetting, durationSetting, enumSetting, stringSetting, urlSetting } from '../config/parsers.js';

/** The disk drivers `STORAGE_DISK` chooses among. */
export const STORAGE_DISKS = ['local', 's3'] as const;

/** The storage settings declaration. */
export const storageSettings = defineSettings(
  {
    STORAGE_DISK: {
      description: 'The disk new files go to: local (a folder, STORAGE_LOCAL_ROOT) or s3 (S3-compatible object storage, STORAGE_S3_*).',
      parser: enumSetting(STORAGE_DISKS),
      default: 'local',
    },
    STORAGE_LOCAL_ROOT: {
      description: 'The folder of the local disk, relative to the app root or absolute.',
      parser: stringSetting(),
      default: '.data/storage',
    },
    STORAGE_S3_BUCKET: {
      description: 'The bucket of the s3 disk; the s3 disk exists when it is set (required when STORAGE_DISK=s3).',
      parser: stringSetting(),
      example: 'my-app-files',
    },
    STORAGE_S3_REGION: { description: 'The region of the bucket.', parser: stringSetting(), default: 'us-east-1' },
    STORAGE_S3_ENDPOINT: {
      description: 'The endpoint of an S3-compatible service other than AWS (R2, MinIO…); unset: AWS S3.',
      parser: urlSetting({ protocols: ['http', 'https'] }),
      example: 'https://<account>.r2.cloudflarestorage.com',
    },
    STORAGE_S3_FORCE_PATH_STYLE: {
      description: 'Address the bucket in the path (endpoint/bucket/key), as MinIO and most S3-compatible services need.',
      parser: booleanSetting(),
      default: 'false',
    },
    STORAGE_S3_ACCESS_KEY_ID: {
      description: 'The access key of the s3 disk; unset: the AWS SDK default chain (environment, instance role).',
      parser: stringSetting(),
    },
    STORAGE_S3_SECRET_ACCESS_KEY: { description: 'The secret of STORAGE_S3_ACCESS_KEY_ID.', parser: stringSetting(), secret: true },
    STORAGE_URL_TTL: {
      description: 'How long a signed download URL of a file works.',
      parser: durationSetting({ min: 1000, max: 7 * 24 * 3_600_000 }),
      default: '15m',
    },
    STORAGE_UPLOAD_TTL: {
      description: 'How long a direct upload URL works.',
      parser: durationSetting({ min: 1000, max: 7 * 24 * 3_600_000 }),
      default: '1h',
    },
    STORAGE_ORPHAN_AGE: {
      description: 'An upload no row took is removed by the orphan sweep once it is this old.',
      parser: durationSetting({ min: 60_000 }),
      default: '24h',
    },
  },
  {
    check: (s) =>
      s.STORAGE_DISK === 's3' && s.STORAGE_S3_BUCKET === undefined
        ? [
            {
              names: ['STORAGE_DISK', 'STORAGE_S3_BUCKET'],
              message: 'STORAGE_DISK=s3 needs STORAGE_S3_BUCKET: set the bucket of the s3 disk.',
            },
          ]
        : [],
  },
);
