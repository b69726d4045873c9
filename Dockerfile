# syntax=docker/dockerfile:1
# One image for every role: `docker build -t platform-backend .`, then `--role api|jobs|indexer|blog`
# (compose.yaml runs the whole topology). No container runtime runs on the development machine:
# test/unit/containers.test.ts checks this file's stages, user and commands instead.
ARG NODE_IMAGE=node:22.23.3-bookworm-slim

FROM ${NODE_IMAGE} AS base
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1 \
    CHECKPOINT_DISABLE=1

# Every dependency: generating the Prisma client and building the blog need the dev tools.
FROM base AS build
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# scripts/prisma.ts points PRISMA_SCHEMA_ENGINE_BINARY at our WASM-backed shim, so `generate` never
# downloads a native engine; at run time Prisma 7 needs none (driver adapter @prisma/adapter-pg).
RUN npm run prisma -- generate
# dist/: every role's process as bundled JavaScript with source maps (scripts/build.ts).
RUN npm run build
# blog:build = import map, blog migrations, next build. The migrations here run against a throwaway
# SQLite database (BLOG_DATABASE_URL unset, DATA_DIR in /tmp) so the build can open Payload; the real
# blog database is migrated when the blog role starts. The build-time PAYLOAD_SECRET is a development one
# generated in that DATA_DIR and is not part of the build output. No Turbopack build cache: this build
# is always a first one, and the cache is not shipped.
RUN DATA_DIR=/tmp/blog-build BLOG_BUILD_CACHE=off npm run blog:build && rm -rf /tmp/blog-build blog/.next/cache

# Production dependencies only.
FROM base AS deps
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM base AS runtime
ENV NODE_ENV=production \
    GENERAL_HOST=0.0.0.0 \
    DATA_DIR=/app/.data
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/package.json /app/tsconfig.json /app/prisma.config.ts ./
COPY --from=build /app/dist ./dist
# The sources stay: the operator scripts run them under tsx, and Next compiles cms/ and blog/ when it builds the blog.
COPY --from=build /app/src ./src
COPY --from=build /app/schema ./schema
COPY --from=build /app/scripts ./scripts
COPY --from=build /app/cms ./cms
COPY --from=build --chown=node:node /app/blog ./blog
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
# api (GENERAL.PORT), blog (BLOG_PORT), jobs/indexer health (HEALTH_PORT in compose.yaml)
EXPOSE 3000 3001 9101
# Node itself as the entry (not npm), so SIGTERM reaches the runtime's drain directly; the built
# JavaScript, with stack traces naming the .ts lines.
ENTRYPOINT ["node", "--enable-source-maps", "dist/main.js"]
CMD ["--role", "api"]
