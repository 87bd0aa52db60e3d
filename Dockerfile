# Ponte server image. Configure with DATABASE_URL, MAPPING and API_KEYS (see README).
FROM node:20-bookworm-slim
WORKDIR /app
# better-sqlite3 builds from source where no prebuilt binary can be fetched.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY tsconfig.json mapping.schema.json ./
COPY src ./src
COPY mappings ./mappings
COPY fixtures ./fixtures
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0
EXPOSE 3000
USER node
CMD ["node", "--import", "tsx", "src/server.ts"]
