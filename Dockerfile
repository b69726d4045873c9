# One image for every role: `docker build -t platform-backend .`, then `--role api|jobs|indexer|blog`
# (compose.yaml runs the whole topology; deploy/kubernetes/ the same on Kubernetes).
# test/containers/ builds it and runs every role from it (docs/operations.md, "Containers").
# NODE_IMAGE: the official Node 22 slim image; deploy/docker/local-base.sh makes an equivalent where
# no container registry is reachable.
ARG NODE_IMAGE=node:22.23.3-bookworm-slim

FROM ${NODE_IMAGE} AS base
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1 \
    CHECKPOINT_DISABLE=1 \
    NPM_CONFIG_UPDATE_NOTIFIER=false

# Every dependency: generating the Prisma client and building the blog need the dev tools. No
# install scripts: the base has Node (the `node` package would fetch a second one), the native parts
# (esbuild, sharp, libsql, Next's SWC) arrive as ordinary packages, and Prisma's engine download is
# not wanted (scripts/prisma.ts generates the client offline; Prisma 7 runs on @prisma/adapter-pg).
FROM base AS build
COPY package.json package-lock.json ./
# The npm workspaces' manifests (packages/*): the lock file lists them.
COPY packages/client/package.json packages/client/
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
RUN npm run prisma -- generate
# dist/: every role's process and the operator scripts as bundled JavaScript with source maps.
RUN npm run build
# The blog, built once here as Next's standalone output (its server and only the files it reads).
# Its migrations run against a throwaway SQLite database only so the build can open Payload; the real
# blog database is migrated when the blog role starts. The build-time PAYLOAD_SECRET is a development
# one generated in that DATA_DIR and is not part of the output.
RUN DATA_DIR=/tmp/blog-build BLOG_BUILD_CACHE=off BLOG_BUILD_OUTPUT=standalone npm run blog:build \
 && rm -rf /tmp/blog-build
# /runtime: the standalone blog (blog/server.js, blog/.next, its traced node_modules), its static
# files, then what the other processes load (scripts/image-files.ts traces dist/ with @vercel/nft).
# Next's server.js is CommonJS, in a package that says "type": "module": blog/ says otherwise.
RUN mkdir -p /runtime/blog/.next \
 && cp -a blog/.next/standalone/. /runtime/ \
 && cp -a blog/.next/static /runtime/blog/.next/static \
 && if [ -d blog/public ]; then cp -a blog/public /runtime/blog/public; fi \
 && echo '{ "type": "commonjs" }' > /runtime/blog/package.json \
 && npx tsx scripts/image-files.ts --out /runtime

FROM base AS runtime
# BLOG_BUILD_ON_START=false: the blog role serves the build above and never builds (the root is
# read-only in production). Only DATA_DIR is written: mount a volume or a tmpfs there.
ENV NODE_ENV=production \
    GENERAL_HOST=0.0.0.0 \
    DATA_DIR=/app/.data \
    BLOG_BUILD_ON_START=false
COPY --from=build /runtime /app
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
# api (GENERAL_PORT), blog (BLOG_PORT), jobs/indexer health and metrics (HEALTH_PORT in compose.yaml)
EXPOSE 3000 3001 9101
# Node itself as the entry (not npm), so SIGTERM reaches the runtime's drain directly; the built
# JavaScript, with stack traces naming the .ts lines.
ENTRYPOINT ["node", "--enable-source-maps", "dist/main.js"]
CMD ["--role", "api"]
