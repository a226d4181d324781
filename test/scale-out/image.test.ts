/**
 * The Dockerfile and compose.yaml, checked where Docker is not available
 * (docs/deploy.md "The image"): the properties a production image must
 * keep, read from the files themselves. The image's HEALTHCHECK command is
 * also run on the host against live instances in scale-out.test.ts.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ROOT } from './instances.js';

const dockerfile = readFileSync(`${ROOT}Dockerfile`, 'utf8');
/** The instructions, continuation lines joined, comments dropped. */
const instructions = dockerfile
  .replace(/\s*\\\n\s*/g, ' ')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l !== '' && !l.startsWith('#'));
const stages = instructions.filter((l) => l.startsWith('FROM '));

describe('Dockerfile', () => {
  it('is multi-stage on a Debian slim Node 24 base', () => {
    expect(instructions).toContain('ARG NODE_IMAGE=node:24-bookworm-slim');
    expect(stages.map((s) => s.split(/\s+/)[1])).toEqual(['${NODE_IMAGE}', '${NODE_IMAGE}', '${NODE_IMAGE}']);
  });

  it('installs production dependencies only (the development tools are devDependencies), without install scripts, and copies them into the last stage', () => {
    const install = instructions.find((l) => l.startsWith('RUN npm ci --omit=dev'));
    expect(install).toMatch(/--ignore-scripts/);
    expect(install).toMatch(/--omit=optional/); // else npm keeps TypeScript, an optional peer of graphile-worker's cosmiconfig
    expect(instructions).toContain('COPY --from=deps /app/node_modules ./node_modules');
  });

  it('builds, and carries only the build output into the last stage (test/deploy/image-steps.test.ts runs the steps)', () => {
    expect(instructions).toContain('RUN npm run generate -- --check && npm run build');
    const copies = instructions.filter((l) => l.startsWith('COPY --from=build'));
    expect(copies.map((l) => l.split(' ')[2])).toEqual([
      '/app/package.json',
      '/app/bin',
      '/app/dist',
      '/app/build',
      '/app/plugins/mailprovider/package.json',
      '/app/plugins/mailprovider/dist',
    ]);
  });

  it('runs as a non-root user, with a HEALTHCHECK on /health/ready, serving by default', () => {
    const last = instructions.slice(instructions.lastIndexOf(stages.at(-1)!));
    expect(last).toContain('USER node');
    expect(last.indexOf('USER node')).toBeLessThan(last.findIndex((l) => l.startsWith('ENTRYPOINT')));
    expect(last.find((l) => l.startsWith('HEALTHCHECK'))).toContain('http://127.0.0.1:3000/health/ready');
    expect(last).toContain('ENV NODE_ENV=production APP_ENV=production HTTP_ADDR=0.0.0.0:3000 LOG_LEVEL=info');
    expect(last).toContain('ENTRYPOINT ["node", "bin/bindery.mjs"]');
    expect(last).toContain('CMD ["serve"]');
    expect(dockerfile).not.toMatch(/^ENV\s+DATABASE_URL/m);
  });
});

describe('compose.yaml', () => {
  const compose = parse(readFileSync(`${ROOT}compose.yaml`, 'utf8'), { merge: true }) as { services: Record<string, any> };
  const s = compose.services;

  it('has PostgreSQL, a one-shot migrate step, N app instances, a worker and a front; Jaeger only in its profile', () => {
    expect(Object.keys(s).sort()).toEqual(['app', 'front', 'jaeger', 'migrate', 'postgres', 'worker']);
    expect(s.jaeger.profiles).toEqual(['observability']);
    for (const name of ['postgres', 'migrate', 'app', 'worker', 'front']) expect(s[name].profiles).toBeUndefined();
    expect(s.migrate).toMatchObject({ command: ['migrate'], restart: 'no', depends_on: { postgres: { condition: 'service_healthy' } } });
    for (const name of ['app', 'worker']) expect(s[name].depends_on).toEqual({ migrate: { condition: 'service_completed_successfully' } });
    expect(s.app.command).toEqual(['serve']);
    expect(s.app.deploy.replicas).toMatch(/APP_REPLICAS/);
    expect(s.worker.command).toEqual(['worker']);
  });

  it('gives every process the same database and keys; APP_KEY is required', () => {
    for (const name of ['migrate', 'app', 'worker']) {
      expect(s[name].environment.DATABASE_URL).toMatch(/@postgres:5432\//);
      expect(s[name].environment.APP_KEY).toMatch(/^\$\{APP_KEY:\?/);
    }
    expect(s.app.environment.HTTP_TRUST_PROXY).toBeDefined();
  });

  it('passes the observability settings through, empty (off) unless set', () => {
    for (const name of ['app', 'worker']) expect(s[name].environment.OTEL_EXPORTER_OTLP_ENDPOINT).toBe('${OTEL_EXPORTER_OTLP_ENDPOINT:-}');
  });
});
