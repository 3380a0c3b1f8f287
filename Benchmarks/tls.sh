#!/usr/bin/env bash
# TLS benchmark: Understudy's HTTPS port vs nginx serving the same JSON over TLS with a leaf signed
# by the same local CA, in the same run. Two cases, each as req/s, p99, server CPU µs per request
# (user + system time from /proc, all threads or worker processes) and the ratio to nginx:
#   keep-alive   many requests per TLS connection
#   handshake    `Connection: close`, so wrk makes a new connection (full handshake, no resumption) per request
#
#   Benchmarks/tls.sh              # build release, then measure
#   SKIP_BUILD=1 Benchmarks/tls.sh # reuse the last release build
#   DURATION=5 THREADS=2 CONNECTIONS=32 ROUNDS=3 Benchmarks/tls.sh
#
# Same shape as run.sh (wrk parsing, medians of alternating rounds, nginx from its own pid file).
# Timings on shared machines are noisy: read the ratios, not the absolute numbers.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-5}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-32}
ROUNDS=${ROUNDS:-3}
PORT=${PORT:-18190}
HTTPS_PORT=${HTTPS_PORT:-18191}
NGINX_PORT=${NGINX_PORT:-18192}
WORK=$(mktemp -d /tmp/understudy-tls-bench.XXXXXX)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]:-}"; do kill "$pid" 2>/dev/null || true; done
  [ -f "$WORK/nginx/nginx.pid" ] && kill "$(cat "$WORK/nginx/nginx.pid")" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$WORK" # the CA, its key and the nginx leaf included
}
trap cleanup EXIT

need() { command -v "$1" >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq "$2" >/dev/null; }; }
need wrk wrk
need nginx nginx-light
need curl curl
need openssl openssl

if [ -z "${SKIP_BUILD:-}" ] && [ -z "${BIN:-}" ]; then swift build -c release --product understudy 2>&1 | tail -1; fi
BIN=${BIN:-"$(swift build -c release --show-bin-path)/understudy"} # BIN=… to try the script on another build

# wrk → "requests req/s p99_ms non2xx" (as run.sh's measure, plus the request count for CPU per request)
measure() {
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency "$@" > "$WORK/wrk.txt"
  awk '
    function ms(v) { if (v ~ /us$/) return v/1000; if (v ~ /ms$/) return v+0; if (v ~ /s$/) return v*1000; return v }
    / requests in / { total=$1 }
    /Requests\/sec/ { rps=$2 }
    $1=="99%" { p99=ms($2) }
    /Non-2xx/ { bad=$NF }
    END { printf "%d %.0f %.3f %s\n", total, rps, p99, (bad==""?0:bad) }' "$WORK/wrk.txt"
}

# CPU ticks (user + system) of the given processes, from /proc/<pid>/stat.
ticks() { for pid in "$@"; do awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$pid/stat"; done | awk '{ s += $1 } END { print s + 0 }'; }
HZ=$(getconf CLK_TCK)
nginx_pids() { echo "$(cat "$WORK/nginx/nginx.pid") $(pgrep -P "$(cat "$WORK/nginx/nginx.pid")" | tr '\n' ' ')"; }

# measure, plus the servers' CPU µs per request → "requests req/s p99 non2xx cpu_us"
measure_cpu() { # $1: pids (quoted list), rest: wrk arguments
  local pids=$1; shift
  local before after
  before=$(ticks $pids)
  read -r total rps p99 bad < <(measure "$@")
  after=$(ticks $pids)
  awk -v t="$total" -v r="$rps" -v p="$p99" -v b="$bad" -v c=$((after - before)) -v hz="$HZ" \
    'BEGIN { printf "%d %s %s %s %.1f\n", t, r, p, b, (t > 0 ? c / hz * 1e6 / t : 0) }'
}

# Understudy with its own CA folder: the CA is made at start and signs nginx's leaf too.
mkdir -p "$WORK/ca"
"$BIN" --port "$PORT" --https-port "$HTTPS_PORT" --no-proxy --ca-dir "$WORK/ca" --database "$WORK/db.sqlite" --no-request-log 2> "$WORK/understudy.log" &
UPID=$!
PIDS+=("$UPID")
until curl -sf "http://127.0.0.1:$PORT/__admin/ready" >/dev/null 2>&1; do sleep 0.005; done
CA_PEM="$WORK/ca/understudy-ca.pem"
curl -sf --cacert "$CA_PEM" "https://127.0.0.1:$HTTPS_PORT/__admin/health" >/dev/null || { echo "the HTTPS port does not verify against $CA_PEM" >&2; exit 1; }

# An nginx leaf for 127.0.0.1, signed with the CA key by the openssl command (P-256 like Understudy's leaves).
mkdir -p "$WORK/nginx"
openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=127.0.0.1" \
  -keyout "$WORK/nginx/leaf.key" -out "$WORK/nginx/leaf.csr" 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1\nbasicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n' > "$WORK/nginx/leaf.ext"
openssl x509 -req -in "$WORK/nginx/leaf.csr" -CA "$CA_PEM" -CAkey "$WORK/ca/understudy-ca.key" -CAcreateserial \
  -days 30 -sha256 -extfile "$WORK/nginx/leaf.ext" -out "$WORK/nginx/leaf.pem" 2>/dev/null
cat "$WORK/nginx/leaf.pem" "$CA_PEM" > "$WORK/nginx/chain.pem" # the same chain Understudy sends
cat > "$WORK/nginx/nginx.conf" <<CONF
worker_processes auto;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 1000000;
  client_body_temp_path $WORK/nginx; proxy_temp_path $WORK/nginx; fastcgi_temp_path $WORK/nginx; uwsgi_temp_path $WORK/nginx; scgi_temp_path $WORK/nginx;
  ssl_protocols TLSv1.2 TLSv1.3;
  ssl_session_cache shared:tls:10m;
  server {
    listen 127.0.0.1:$NGINX_PORT ssl;
    ssl_certificate $WORK/nginx/chain.pem;
    ssl_certificate_key $WORK/nginx/leaf.key;
    location / { default_type application/json; return 200 '{"status":"ok"}'; }
  }
}
CONF
nginx -c "$WORK/nginx/nginx.conf" -p "$WORK/nginx"
until curl -sf --cacert "$CA_PEM" "https://127.0.0.1:$NGINX_PORT/" >/dev/null 2>&1; do sleep 0.01; done

U_URL="https://127.0.0.1:$HTTPS_PORT/__admin/health"
N_URL="https://127.0.0.1:$NGINX_PORT/"
echo "warming up…"
wrk -t1 -c4 -d1s "$U_URL" >/dev/null; wrk -t1 -c4 -d1s "$N_URL" >/dev/null
wrk -t1 -c4 -d1s -H "Connection: close" "$U_URL" >/dev/null; wrk -t1 -c4 -d1s -H "Connection: close" "$N_URL" >/dev/null

# Rounds alternate nginx and Understudy for each case; medians smooth out the shared machine.
: > "$WORK/keepalive.txt"; : > "$WORK/handshake.txt"
for round in $(seq "$ROUNDS"); do
  echo "$(measure_cpu "$(nginx_pids)" "$N_URL") $(measure_cpu "$UPID" "$U_URL")" >> "$WORK/keepalive.txt"
  echo "$(measure_cpu "$(nginx_pids)" -H "Connection: close" "$N_URL") $(measure_cpu "$UPID" -H "Connection: close" "$U_URL")" >> "$WORK/handshake.txt"
done
RSS_KB=$(awk '/VmRSS/ {print $2}' "/proc/$UPID/status")

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
column() { cut -d' ' -f"$2" "$1" | median; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }

echo
echo "Understudy TLS benchmark — wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s, loopback, medians of $ROUNDS rounds"
printf "%-36s %10s %9s %12s %6s\n" "target" "req/s" "p99 ms" "CPU µs/req" "non2xx"
for case in keepalive handshake; do
  file="$WORK/$case.txt"
  label=$([ "$case" = keepalive ] && echo "keep-alive" || echo "full handshake per request")
  N_RPS=$(column "$file" 2); N_P99=$(column "$file" 3); N_BAD=$(column "$file" 4); N_CPU=$(column "$file" 5)
  U_RPS=$(column "$file" 7); U_P99=$(column "$file" 8); U_BAD=$(column "$file" 9); U_CPU=$(column "$file" 10)
  printf "%-36s %10s %9s %12s %6s\n" "nginx, $label" "$N_RPS" "$N_P99" "$N_CPU" "$N_BAD"
  printf "%-36s %10s %9s %12s %6s\n" "understudy, $label" "$U_RPS" "$U_P99" "$U_CPU" "$U_BAD"
  PER_ROUND=$(awk '{ printf "%.2f ", $7 / $2 }' "$file")
  echo "  ratio understudy/nginx: req/s $(ratio "$U_RPS" "$N_RPS") (target ≥ 0.50; per round: ${PER_ROUND% }), CPU per request $(ratio "$U_CPU" "$N_CPU") (nginx = 1)"
done
echo "understudy RSS after the runs: $((RSS_KB / 1024)) MiB"
