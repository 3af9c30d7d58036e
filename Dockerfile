# syntax=docker/dockerfile:1
# Deep Research for Slack: `serve` (the Slack app and a worker) by default.
# There is no build step (tsx runs the TypeScript sources), so the first
# stage only installs the production dependencies from the lockfile.

FROM node:26-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

FROM node:26-bookworm-slim
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json manifest.yml ./
COPY bin ./bin
COPY src ./src
COPY prompts ./prompts
COPY migrations ./migrations
# The embedded database (used when DATABASE_URL is unset) lives in a volume the app's user owns.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 3000
# /healthz answers 200 while the database answers, 503 otherwise; the image has no curl, Node has fetch.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "bin/deep-research.js"]
CMD ["serve"]
