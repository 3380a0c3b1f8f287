#!/usr/bin/env bash
# Builds the libFuzzer target: Sources/HTTPServer plus Fuzz/FuzzHTTPParser.swift compiled into one
# module (so internal API is reachable), with libFuzzer and AddressSanitizer.
# Usage: Fuzz/build.sh [output]   (default .build/fuzz/fuzz-http-parser)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
out=${1:-.build/fuzz/fuzz-http-parser}
mkdir -p "$(dirname "$out")"
# Every source of the module, in subfolders too.
mapfile -t sources < <(find Sources/HTTPServer -name '*.swift' | sort)
# -O: libFuzzer's value is executions per second; -g keeps crash stacks readable.
swiftc -sanitize=fuzzer,address -parse-as-library -swift-version 6 -O -g \
  -module-name HTTPServer \
  -I Sources/CZlib -I Sources/CEpoll -I Sources/COpenSSL \
  -module-cache-path .build/fuzz/module-cache \
  "${sources[@]}" Fuzz/FuzzHTTPParser.swift \
  -lz -lssl -lcrypto -o "$out" 2> >(grep -v "Cannot export local symbol '__asan" >&2)
echo "built $out"
