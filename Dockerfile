# The kubecfg image: the daemon (TCP mode), the remote render service and the CLI.
# Named kubecfg:dev by docker-compose.yml and deploy/kubecfg-remote.jsonnet (docs/remote.md, "The image").
#
#   docker build -t kubecfg:dev .

# Build: dev dependencies, then tsc and the esbuild bundle; test files are dropped.
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build \
 && find dist -name '*.test.js' -delete \
 && rm -rf dist/test dist/bench

# Runtime: production dependencies and dist/ only, as the unprivileged `node` user (uid 1000).
FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /src/dist ./dist
# State directories owned by `node`, so named volumes mounted there start writable.
RUN ln -s /app/dist/bin/kubecfg.js /usr/local/bin/kubecfg \
 && mkdir -p /var/lib/kubecfg /var/lib/kubecfg-remote \
 && chown node:node /var/lib/kubecfg /var/lib/kubecfg-remote
USER node
# The daemon in TCP mode; compose and deploy/ pass their own command.
CMD ["node", "dist/server/main.js", "--foreground", "--listen", "0.0.0.0:7070", "--idle-timeout", "0"]
