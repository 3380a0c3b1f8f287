#!/usr/bin/env python3
"""A short, bounded load against a running Understudy on 127.0.0.1: health, journalled
control-plane routes and one SDK route per platform, over keep-alive connections from a few
threads. Exits non-zero if any request failed at the transport or got a 5xx.

Used by .ci/run against the release build under MALLOC_CHECK_=3, so heap corruption in release
builds (which debug builds never show) fails CI. Usage: smoke_load.py PORT [SECONDS]"""
import http.client, json, sys, threading, time

port = int(sys.argv[1])
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 5.0

def call(conn, method, path, body=None, headers=None):
    headers = dict(headers or {})
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    conn.request(method, path, body=data, headers=headers)
    response = conn.getresponse()
    payload = response.read()
    return response.status, payload

setup = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
status, payload = call(setup, "POST", "/__admin/projects", {"name": "smoke"})
assert status == 201, (status, payload)
project = json.loads(payload)
credentials = project["credentials"]
pid = project["id"]
targets = [
    ("GET", "/__admin/health", None, {}),
    ("GET", f"/__admin/projects/{pid}", None, {}),
    ("GET", f"/__admin/projects/{pid}/requests?limit=5", None, {}),
    ("GET", "/warplink/v1/sdk/validate", None, {"Authorization": "Bearer " + credentials["warplink"]["sdkKey"]}),
    ("GET", "/warplink/v1/links/resolve/nope", None, {"Authorization": "Bearer " + credentials["warplink"]["sdkKey"]}),
    ("GET", "/asleep/ai/v1/users/nobody", None, {"x-api-key": credentials["asleep"]["apiKey"]}),
    ("GET", "/warrantylife/mapi/wi/100/appConfig", None, {"X-WL-Developer-Key": credentials["warrantylife"]["developerKey"]}),
    ("GET", "/telematics/api/v1/users/current", None, {}),
]
counts = {"requests": 0, "failures": 0}
lock = threading.Lock()
deadline = time.time() + seconds

def worker(offset):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    index = offset
    done = failed = 0
    while time.time() < deadline:
        method, path, body, headers = targets[index % len(targets)]
        index += 1
        try:
            status, _ = call(conn, method, path, body, headers)
            if status >= 500:
                failed += 1
        except Exception:
            failed += 1
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        done += 1
    with lock:
        counts["requests"] += done
        counts["failures"] += failed

threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(f"smoke load: {counts['requests']} requests, {counts['failures']} failures")
sys.exit(1 if counts["failures"] or counts["requests"] == 0 else 0)
