#!/usr/bin/env bash
# Request-level extremes fuzzer (.ci/extremes/run.py, jsonschema from PyPI in a venv) against the
# debug server CI built: every numeric leaf of every served OpenAPI document's request examples
# (bodies, query, header and path parameters, a bundle's cells and clock) gets ±1e300, ±9.3e18,
# 2^64, -2^63-1, Int64.max/min, 1e19, 2^32, 1.5, -1, 0, 1e-300 and 1e400 as literal JSON; each
# date leaf odd dates. Fails on a death, any answer >= 500, or a refusal outside the document's
# error shapes. Ends with a plain `N passed, N failed` line (one check per operation).
#
#   EXTREMES_LONG=1      more values (32/53-bit edges, denormals, more dates) and every bundle row
#   EXTREMES_TIMEOUT     seconds before the run is stopped (default 900)
set -euo pipefail
cd "$(dirname "$0")/.."
binary=.build/debug/understudy
[ -x "$binary" ] || { echo "build first: $binary is missing"; exit 1; }
# Pinned, so CI does not move by itself.
version=4.26.0
venv=.build/extremes-venv
if ! "$venv/bin/python" -c "import importlib.metadata as m; assert m.version('jsonschema') == '$version'" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "jsonschema==$version"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
long=()
[ "${EXTREMES_LONG:-0}" = "1" ] && long=(--long)
exec timeout --kill-after=10 "${EXTREMES_TIMEOUT:-900}" "$venv/bin/python" .ci/extremes/run.py --binary "$binary" --work "$work" "${long[@]}" "$@"
