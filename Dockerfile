# syntax=docker/dockerfile:1
#
# The production image of a bindery app (docs/deploy.md#the-image).
#
#   docker build -t bindery-app .
#   docker run --rm -e DATABASE_URL=postgres://… -e APP_KEY=base64:… bindery-app migrate   # release step
#   docker run -d -p 3000:3000 -e DATABASE_URL=… -e APP_KEY=… bindery-app                 # serve (default)
#   docker run -d -e DATABASE_URL=… -e APP_KEY=… bindery-app worker                         # jobs
#
# The image runs compiled JavaScript under plain Node (NODE_ENV=production:
# the framework's dist/ and the app's build/, no tsx, no TypeScript sources).
# No PostgreSQL inside: production needs DATABASE_URL (without it the boot
# stops, naming the setting).
# test/deploy/image-steps.test.ts runs these steps on a host without Docker.

# Node.js 24 (the newest LTS); bindery supports 22.12+ and 24 (package.json engines).
ARG NODE_IMAGE=node:24-bookworm-slim

# ── 1. production dependencies only ────────────────────────────────────────
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# The workspaces (plugins/*) are part of the dependency tree.
COPY plugins ./plugins
# --omit=dev: no development tool (typescript, ts-morph, redoc, the
# embedded PostgreSQL, tsx, vitest; docs/package.md "What a production
# install contains"); --omit=optional too, or npm keeps TypeScript, which a
# dependency (graphile-worker's cosmiconfig) names an optional peer.
# --ignore-scripts: no dependency runs code at install;
# argon2 loads its prebuilt binary (glibc, x64/arm64) without its script.
# The link makes `bindery/<entry>` resolve for the workspace plugins (in a
# project that depends on bindery, node_modules/bindery is the package).
# npm's cache stays in this stage: only node_modules goes into the image.
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund \
 && ln -s .. node_modules/bindery

# ── 2. build: every dependency, then the compiled JavaScript ───────────────
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY plugins ./plugins
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
# Generated code is committed; this refuses an image whose generated/ is
# stale. `npm run build`: the framework (dist/), the plugins (plugins/*/dist/)
# and the app (build/: app/ and generated/ compiled, views, assets and
# migrations copied) — docs/deploy.md#the-production-build.
RUN npm run generate -- --check \
 && npm run build

# ── 3. runtime: the build output and the production dependencies only ─────
FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    APP_ENV=production \
    HTTP_ADDR=0.0.0.0:3000 \
    LOG_LEVEL=info
# Owned by root, read-only for the user that runs them.
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/bin ./bin
COPY --from=build /app/dist ./dist
COPY --from=build /app/build ./build
COPY --from=build /app/plugins/mailprovider/package.json ./plugins/mailprovider/package.json
COPY --from=build /app/plugins/mailprovider/dist ./plugins/mailprovider/dist
# `node` (uid 1000) comes with the official image.
USER node
EXPOSE 3000
# /health/ready: the database answers and no migration is pending.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3000/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM (docker stop) starts the graceful shutdown; give it HTTP_REQUEST_TIMEOUT + 5 s
# (docker stop --time 40, compose stop_grace_period: 40s).
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "bin/bindery.mjs"]
CMD ["serve"]
