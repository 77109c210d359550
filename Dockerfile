# The service image: one image for API nodes (`npm start`, RUN_WORKER=false) and workers (`npm run worker`).
# Not built in CI (no Docker engine there); see docs/OPERATIONS.md "Running at scale". Node.js 24, the supported runtime.
FROM node:24-bookworm-slim AS deps
# npm runs node-gyp for better-sqlite3: a no-op when the Node-API binary inside its package fits the
# platform (linux x64/arm64, glibc or musl), a source build otherwise; either way it needs these.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages ./packages
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY . .
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 8080
# node itself is PID 1 (no npm or shell wrapper), so SIGTERM reaches the service, which drains and exits.
CMD ["node", "src/main.ts"]
