#!/usr/bin/env python3
"""Sends SDK requests of every platform to the demo project, exports the journal as HAR and loads it
with haralyzer; prints one line per check and `N passed, N failed`.

  check.py READY_FILE     (the server's --ready-file: its http URL)
"""
import json
import sys
import urllib.error
import urllib.request

from haralyzer import HarEntry, HarParser

ready = json.load(open(sys.argv[1]))
base = ready["http"]
results = []


def check(name, condition, detail=""):
    results.append(bool(condition))
    print(("ok   " if condition else "FAIL ") + name + ("" if condition else f": {detail}"))


def send(method, path, headers=None, body=None):
    request = urllib.request.Request(base + path, method=method, headers=headers or {}, data=body)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


wl_key = {"X-WL-Developer-Key": "demo0000000000000000000000000000"}
sent = [
    send("GET", "/warrantylife/mapi/wi/100/developer-keys/validate", wl_key),
    send("POST", "/warrantylife/mapi/wi/100/auth/user", {**wl_key, "Content-Type": "application/json"},
         json.dumps({"email": "har@example.com", "password": "pw-123456"}).encode()),
    send("GET", "/warplink/v1/sdk/validate", {"Authorization": "Bearer wl_live_demo0000000000000000000000000000"}),
    send("GET", "/warplink/v1/links/resolve/welcome?domain=aplnk.to", {"Authorization": "Bearer wl_live_demo0000000000000000000000000000"}),
    send("GET", "/asleep/ai/v1/users/nobody", {"x-api-key": "wrong"}),
    send("GET", "/telematics/api/v1/trips?startTs=2026-11-03", {"Authorization": "Bearer tma_demo000000_DemoAccessToken0000000000000000001"}),
]
status, body = send("GET", "/__admin/projects/demo/requests.har")
check("the archive answers 200", status == 200, status)
har = json.loads(body)
parser = HarParser(har)
check("haralyzer reads it as HAR 1.2", parser.har_data.get("version") == "1.2" and parser.creator.get("name") == "Understudy", parser.har_data.get("version"))
raw = har["log"]["entries"]
# The demo project's own journal: the SDK requests above (the refused Asleep key belongs to no project).
sdk = [entry for entry in raw if entry["request"]["url"].split("/", 3)[-1].split("/")[0] in ("warrantylife", "warplink", "telematics", "asleep")]
check("every SDK request of the project is an entry", len(sdk) >= 5, len(sdk))
parsed = [HarEntry(entry) for entry in raw]
check("every entry parses (method, url, status, time)", all(e.request.method and e.request.url.startswith("http://") and isinstance(e.status, int) for e in parsed),
      [e.request.url for e in parsed][:3])
post = next((e for e in parsed if e.request.method == "POST" and e.request.url.endswith("/auth/user")), None)
check("the POST's body is its postData", post is not None and "har@example.com" in post.raw_entry["request"]["postData"]["text"])
check("its response body is the content text", post is not None and post.response.text and "data" in post.response.text, post and post.response.text)
resolve = next((e for e in parsed if "/links/resolve/welcome" in e.request.url), None)
check("the query is in the url and the queryString", resolve is not None and resolve.raw_entry["request"]["queryString"] == [{"name": "domain", "value": "aplnk.to"}])
check("entries are oldest first", [e.raw_entry["startedDateTime"] for e in parsed] == sorted(e.raw_entry["startedDateTime"] for e in parsed))
check("secrets stay redacted", all("demo0000000000000000000000000000" not in json.dumps(e.raw_entry["request"]["headers"]) for e in parsed))
passed = sum(results)
print(f"{passed} passed, {len(results) - passed} failed")
sys.exit(0 if passed == len(results) else 1)
