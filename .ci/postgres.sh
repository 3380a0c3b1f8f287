#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests: initdb into a temp dir, a free loopback port,
# unix sockets in the temp dir, password auth on 127.0.0.1 only, nothing kept afterwards.
#
#   eval "$(bash .ci/postgres.sh start [--install] [--watch PID])"   # exports UNDERSTUDY_TEST_POSTGRES_URL
#   bash .ci/postgres.sh stop "$UNDERSTUDY_TEST_POSTGRES_DIR"        # stops it and removes the dir
#   bash .ci/postgres.sh halt DIR / resume DIR                          # an outage: stop, keep the files, start again
#
# start prints only `export …` lines on stdout (everything else goes to stderr). --install
# installs Debian's `postgresql` with apt-get when no server binaries are found (CI); --watch PID
# stops the cluster by itself once process PID is gone (a test process that crashed or was killed).
# UNDERSTUDY_POSTGRES_BINDIR names the server binaries' folder instead of searching for them.
# initdb refuses to run as root, so as root the cluster belongs to the `postgres` system user
# (created when missing).
set -euo pipefail

find_bindir() {
  local dir
  # An explicit folder (UNDERSTUDY_POSTGRES_BINDIR) is the only one tried.
  if [ -n "${UNDERSTUDY_POSTGRES_BINDIR:-}" ]; then
    [ -x "$UNDERSTUDY_POSTGRES_BINDIR/initdb" ] && { echo "$UNDERSTUDY_POSTGRES_BINDIR"; return 0; }
    return 1
  fi
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    [ -x "$dir/initdb" ] && { echo "$dir"; return 0; }
  done
  if command -v pg_config >/dev/null && [ -x "$(pg_config --bindir)/initdb" ]; then pg_config --bindir; return 0; fi
  if command -v initdb >/dev/null; then dirname "$(command -v initdb)"; return 0; fi
  return 1
}

# Runs a command as the cluster's owner: the `postgres` user when we are root, else ourselves.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start() {
  local install=0 watch=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --install) install=1 ;;
      --watch) watch="$2"; shift ;;
      *) echo "postgres.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
  done
  local bindir
  if ! bindir=$(find_bindir); then
    if [ "$install" -eq 1 ] && command -v apt-get >/dev/null; then
      echo "postgres.sh: installing postgresql" >&2
      apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
      bindir=$(find_bindir)
    else
      echo "postgres.sh: no PostgreSQL server binaries (initdb) found; install postgresql (Debian: apt-get install postgresql; macOS: brew install postgresql)" >&2
      exit 3
    fi
  fi
  if [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; then
    useradd --system --no-create-home --shell /usr/sbin/nologin postgres
  fi
  local dir port password
  dir=$(mktemp -d "${TMPDIR:-/tmp}/understudy-pg.XXXXXX")
  chmod 755 "$dir"
  [ "$(id -u)" -eq 0 ] && chown postgres "$dir"
  password="understudy-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
  printf '%s\n' "$password" > "$dir/pwfile"
  [ "$(id -u)" -eq 0 ] && chown postgres "$dir/pwfile"
  as_owner "$bindir/initdb" -D "$dir/data" -U understudy --pwfile="$dir/pwfile" -A scram-sha-256 --auth-local=trust \
    -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
  rm -f "$dir/pwfile"
  # Only the loopback address, password required; the local socket (trust) is the test dir's own.
  {
    echo "local all all trust"
    echo "host all all 127.0.0.1/32 scram-sha-256"
  } > "$dir/data/pg_hba.conf"
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  # Durability is not what these tests measure: fsync off keeps CREATE DATABASE per test fast.
  echo "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=2000" > "$dir/options"
  as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 -o "$(cat "$dir/options")" start >&2 || { cat "$dir/server.log" >&2; exit 1; }
  for _ in $(seq 50); do
    "$bindir/pg_isready" -q -h 127.0.0.1 -p "$port" && break
    sleep 0.1
  done
  "$bindir/pg_isready" -q -h 127.0.0.1 -p "$port" || { echo "postgres.sh: the server did not become ready" >&2; cat "$dir/server.log" >&2; exit 1; }
  echo "$bindir" > "$dir/bindir"
  if [ -n "$watch" ]; then
    # Detached from our stdout so `eval "$(…)"` does not wait for it.
    nohup bash "$0" watch "$watch" "$dir" >/dev/null 2>&1 &
  fi
  echo "export UNDERSTUDY_TEST_POSTGRES_URL=postgres://understudy:$password@127.0.0.1:$port/postgres"
  echo "export UNDERSTUDY_TEST_POSTGRES_DIR=$dir"
}

stop() {
  local dir="$1"
  [ -n "$dir" ] && [ -f "$dir/bindir" ] || return 0
  as_owner "$(cat "$dir/bindir")/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}

# Stops the server as an outage would (fast shutdown: sessions end, the files stay), for tests
# that check clients through a restart; `resume` starts it again on the same port.
halt() {
  local dir="$1"
  as_owner "$(cat "$dir/bindir")/pg_ctl" -D "$dir/data" -m fast -w stop >&2
}

resume() {
  local dir="$1"
  as_owner "$(cat "$dir/bindir")/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 -o "$(cat "$dir/options")" start >&2
}

watch() {
  local pid="$1" dir="$2"
  while kill -0 "$pid" 2>/dev/null; do sleep 1; done
  stop "$dir"
}

command="${1:-}"
shift || true
case "$command" in
  start) start "$@" ;;
  stop) stop "${1:-}" ;;
  watch) watch "$@" ;;
  halt) halt "${1:?DIR}" ;;
  resume) resume "${1:?DIR}" ;;
  *) echo "usage: postgres.sh start [--install] [--watch PID] | stop DIR | halt DIR | resume DIR" >&2; exit 2 ;;
esac
