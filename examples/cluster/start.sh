#!/usr/bin/env bash
# Starts the example cluster on this machine (examples/cluster/README.md): PostgreSQL and Redis in a temp folder
# on 127.0.0.1 (or the servers named by DATABASE_URL and REDIS_URL), a bare git repository of posts (or the one
# POSTS_REMOTE names), REPLICAS postbox serve processes with config.toml and posts.toml, each with its own clone of
# the posts, and nginx on 127.0.0.1:PORT (forms) and BLOG_PORT (blog, /admin) in front of them. Ctrl-C stops
# everything and removes the temp folder.
#
# Environment: PORT (nginx, default 8080), BLOG_PORT (nginx, default 8081), REPLICAS (default 2),
# FIRST_REPLICA_PORT (default 8091), FIRST_BLOG_PORT (default 8191), DATABASE_URL, REDIS_URL (existing servers),
# POSTS_REMOTE (an existing repository of posts), PG_PORT (default 55432), REDIS_PORT (default 56379).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
port="${PORT:-8080}"
blog_port="${BLOG_PORT:-8081}"
replicas="${REPLICAS:-2}"
first_replica_port="${FIRST_REPLICA_PORT:-8091}"
first_blog_port="${FIRST_BLOG_PORT:-8191}"
run_dir="$(mktemp -d "${TMPDIR:-/tmp}/postbox-cluster-XXXXXX")"
pids=()
pg_bin=""
pg_data=""

die() { echo "start.sh: $*" >&2; exit 1; }
# initdb refuses root: under root the throwaway cluster runs as the "postgres" user of Debian's package.
as_postgres() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

cleanup() {
  trap - EXIT INT TERM
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ -n "$pg_data" ]; then as_postgres "$pg_bin/pg_ctl" stop -D "$pg_data" -m fast -w >/dev/null 2>&1 || true; fi
  rm -rf "$run_dir"
  echo "stopped; removed $run_dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

wait_for_port() { # host port what
  for _ in $(seq 1 100); do
    if (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  die "$3 did not listen on $1:$2 (logs in $run_dir)"
}

nginx_bin="$(command -v nginx || true)"
[ -n "$nginx_bin" ] || { [ -x /usr/sbin/nginx ] && nginx_bin=/usr/sbin/nginx; } || die 'nginx not found: install the Debian package "nginx-light"'

if [ -z "${DATABASE_URL:-}" ]; then
  pg_bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
  [ -n "$pg_bin" ] || pg_bin="$(dirname "$(command -v initdb || die 'PostgreSQL not found: install the Debian package "postgresql" or set DATABASE_URL')")"
  pg_port="${PG_PORT:-55432}"
  pg_data="$run_dir/postgres/data"
  mkdir -p "$run_dir/postgres"
  if [ "$(id -u)" -eq 0 ]; then chmod 755 "$run_dir" && chown postgres: "$run_dir/postgres"; fi
  as_postgres "$pg_bin/initdb" -D "$pg_data" -U postbox -A trust -E UTF8 --locale=C >/dev/null
  as_postgres "$pg_bin/pg_ctl" start -D "$pg_data" -l "$run_dir/postgres/server.log" -w \
    -o "-p $pg_port -k $run_dir/postgres -c listen_addresses=127.0.0.1" >/dev/null
  "$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U postbox postbox
  export DATABASE_URL="postgres://postbox@127.0.0.1:$pg_port/postbox"
fi

if [ -z "${REDIS_URL:-}" ]; then
  command -v redis-server >/dev/null || die 'redis-server not found: install the Debian package "redis-server" or set REDIS_URL'
  redis_port="${REDIS_PORT:-56379}"
  mkdir -p "$run_dir/redis"
  redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --dir "$run_dir/redis" >"$run_dir/redis/server.log" 2>&1 &
  pids+=($!)
  wait_for_port 127.0.0.1 "$redis_port" redis-server
  export REDIS_URL="redis://127.0.0.1:$redis_port"
fi

[ -f "$repo/dist/cli.js" ] || (cd "$repo" && npm run build)

if [ -z "${POSTS_REMOTE:-}" ]; then
  # The repository every replica clones and pushes to: a bare one here, holding examples/posts/ in a first commit.
  command -v git >/dev/null || die 'git not found: install git 2.30 or newer'
  export POSTS_REMOTE="$run_dir/posts.git"
  git init --quiet --bare --initial-branch main "$POSTS_REMOTE"
  seed="$run_dir/posts-seed"
  cp -R "$repo/examples/posts" "$seed"
  git -C "$seed" init --quiet --initial-branch main
  git -C "$seed" add -- .
  git -C "$seed" -c user.name=Postbox -c user.email=postbox@postbox.invalid commit --quiet -m 'The example posts'
  git -C "$seed" push --quiet "$POSTS_REMOTE" HEAD:refs/heads/main
  rm -rf "$seed"
fi

upstreams=""
blog_upstreams=""
for index in $(seq 1 "$replicas"); do
  replica_port=$((first_replica_port + index - 1))
  replica_blog_port=$((first_blog_port + index - 1))
  # Each replica: its own data_dir, its own (empty) folder for its clone of the posts, one config file.
  mkdir -p "$run_dir/replica-$index/posts"
  cat "$here/config.toml" "$here/posts.toml" >"$run_dir/replica-$index.toml"
  POSTBOX_LISTEN="127.0.0.1:$replica_port" POSTBOX_DATA_DIR="$run_dir/replica-$index" \
    POSTBOX_BLOG_LISTEN="127.0.0.1:$replica_blog_port" POSTBOX_CONTENT_DIR="$run_dir/replica-$index/posts" \
    "$repo/dist/cli.js" serve --config "$run_dir/replica-$index.toml" >"$run_dir/replica-$index.log" 2>&1 &
  pids+=($!)
  # The first replica migrates the database; the others find it done (they would take turns anyway).
  wait_for_port 127.0.0.1 "$replica_port" "replica $index"
  wait_for_port 127.0.0.1 "$replica_blog_port" "replica $index (blog)"
  upstreams+="    server 127.0.0.1:$replica_port max_fails=1 fail_timeout=2s;"$'\n'
  blog_upstreams+="    server 127.0.0.1:$replica_blog_port max_fails=1 fail_timeout=2s;"$'\n'
done

mkdir -p "$run_dir/nginx/temp"
# Workers of an nginx started by root would run as "nobody", who cannot write the temp folder.
{ [ "$(id -u)" -ne 0 ] || echo 'user root;'; sed -e "s|@RUN_DIR@|$run_dir/nginx|g" -e "s|@LISTEN@|127.0.0.1:$port|g" -e "s|@BLOG_LISTEN@|127.0.0.1:$blog_port|g" "$here/nginx.conf.template"; } |
  UPSTREAMS="$upstreams" BLOG_UPSTREAMS="$blog_upstreams" \
  awk '/@UPSTREAMS@/ { printf "%s", ENVIRON["UPSTREAMS"]; next } /@BLOG_UPSTREAMS@/ { printf "%s", ENVIRON["BLOG_UPSTREAMS"]; next } { print }' >"$run_dir/nginx/nginx.conf"
"$nginx_bin" -p "$run_dir/nginx" -c "$run_dir/nginx/nginx.conf" -g 'daemon off;' &
pids+=($!)
wait_for_port 127.0.0.1 "$port" nginx
wait_for_port 127.0.0.1 "$blog_port" "nginx (blog)"

cat <<EOF
Postbox cluster: nginx on http://127.0.0.1:$port in front of $replicas replicas (ports $first_replica_port..$((first_replica_port + replicas - 1)))
  blog and /admin: http://127.0.0.1:$blog_port (replicas on $first_blog_port..$((first_blog_port + replicas - 1))), admin / postbox-example-password
  PostgreSQL: ${DATABASE_URL%%\?*}
  Redis:      $REDIS_URL
  posts:      $POSTS_REMOTE (each replica's clone: $run_dir/replica-N/posts)
  logs:       $run_dir/replica-N.log, $run_dir/nginx/error.log
Try:
  curl -s http://127.0.0.1:$port/health
  curl -s -X POST http://127.0.0.1:$port/contact -H 'content-type: application/json' \\
    -d '{"name":"Ada Lovelace","email":"ada@example.org","message":"Hello from the cluster!"}'
  curl -s http://127.0.0.1:$blog_port/api/blog/posts      # then edit a post at /admin; git -C $POSTS_REMOTE log
Ctrl-C stops everything.
EOF
# Whichever process ends first (or Ctrl-C) stops the others.
wait -n "${pids[@]}" || true
