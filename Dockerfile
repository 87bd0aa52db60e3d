# Ponte server image. Configure with DATABASE_URL, MAPPING and API_KEYS (see docs/operations.md).
# Written against the official Node.js image's documentation (Docker Hub `node`, and
# nodejs/docker-node docs/BestPractices.md); no Docker engine was available to build it.
#
# Stage 1: compile TypeScript and build better-sqlite3's native module. Compilers live here only.
FROM node:24-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 builds from source where no prebuilt binary can be fetched.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build
# Production dependencies only, compiled here (native modules included) and copied as they are.
RUN npm ci --omit=dev --no-audit --no-fund

# Stage 2: the runtime: Node, the compiled JavaScript, production node_modules, the mappings
# and sample fixtures. No compiler, no TypeScript, no dev dependencies.
FROM node:24-bookworm-slim
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 \
    IDEMPOTENCY_STORE=/var/lib/ponte/idempotency.sqlite \
    EVENTS_STORE=/var/lib/ponte/events.sqlite
WORKDIR /app
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
COPY package.json mapping.schema.json ./
COPY mappings ./mappings
COPY fixtures ./fixtures
# The Idempotency-Key store (remembered responses, 24 h+) and the event log (events, owed
# webhooks) survive a container replacement;
# the image's `node` user (uid 1000) owns it and nothing else is writable.
RUN mkdir -p /var/lib/ponte && chown node:node /var/lib/ponte && chmod 700 /var/lib/ponte
VOLUME ["/var/lib/ponte"]
USER node
EXPOSE 3000
# Liveness: /health never touches the database. The slim image has no curl: Node's fetch.
HEALTHCHECK --interval=30s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Node itself is PID 1 and handles SIGTERM/SIGINT (graceful drain) and SIGHUP (mapping reload);
# `docker run --init` adds an init process if you prefer one.
CMD ["node", "--max-semi-space-size=64", "dist/server.js"]
