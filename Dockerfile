# syntax=docker/dockerfile:1
# vericase: the API (`serve`, default) and the background workers (`worker`) in one image.
#   docker build -t vericase --build-arg VERICASE_GIT_COMMIT=$(git rev-parse HEAD) .
# See docs/deployment.md (compose.yaml starts PostgreSQL, MinIO, two API processes and a worker).

# Node 22 on Debian 13 (trixie), slim: its postgresql-client is 17, the version compose.yaml runs
# (pg_dump refuses a server newer than itself, and `vericase db backup` uses it)
ARG NODE_IMAGE=node:22-trixie-slim

# ---- build: every dependency (Vite for the web pages), then the pages into web/dist
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: no `prepare` before the sources are here, and the `node` package's download of a
# second Node binary is not needed (this image has Node 22)
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
# the web pages into web/dist, the service's bundle into node_modules/.cache/vericase-server
RUN node scripts/build-web.ts && node scripts/build-server.ts

# ---- production dependencies only
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

# ---- runtime
FROM ${NODE_IMAGE} AS runtime
# chromium: document templates and case reports are printed to PDF by it (VERICASE_CHROMIUM_PATH);
# fonts for those PDFs (fonts-noto-cjk: Chinese, Japanese and Korean names, else printed as boxes);
# postgresql-client: `vericase db backup` / `db restore` on PostgreSQL
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
     chromium fonts-dejavu-core fonts-liberation fonts-noto-cjk postgresql-client ca-certificates \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    VERICASE_CHROMIUM_PATH=/usr/bin/chromium
COPY --from=deps /app/node_modules ./node_modules
COPY --chown=root:root package.json package-lock.json ./
COPY --chown=root:root bin ./bin
COPY --chown=root:root src ./src
COPY --chown=root:root docs ./docs
COPY --from=build /app/web/dist ./web/dist
# run instead of src/ while it matches src/ (bin/server-bundle.js): a faster start
COPY --from=build /app/node_modules/.cache/vericase-server ./node_modules/.cache/vericase-server
# the code belongs to root and is read-only for the service; only /data is the service's
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
ARG VERICASE_GIT_COMMIT=""
ENV VERICASE_GIT_COMMIT=${VERICASE_GIT_COMMIT}
USER node
EXPOSE 3000
# liveness of `serve` on PORT, or of `worker` on VERICASE_WORKER_PORT when set (no curl in slim images)
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "const p=process.env.VERICASE_WORKER_PORT||process.env.PORT||3000;fetch('http://127.0.0.1:'+p+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# the Node option of bin/node-flags.js (AsyncLocalStorage without promise hooks)
ENTRYPOINT ["node", "--experimental-async-context-frame", "bin/vericase.js"]
CMD ["serve"]
