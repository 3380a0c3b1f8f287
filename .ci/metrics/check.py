"""Sends traffic to a running Understudy, scrapes GET /__admin/metrics and parses it with
prometheus_client's text parser: any parse error, missing family, wrong type or counter that did
not move is a failure. Prints one line per check and ends with `N passed, N failed`.

    check.py BASE_URL PROXY_PORT
"""
import socket
import sys
import urllib.error
import urllib.request

from prometheus_client.parser import text_string_to_metric_families

base, proxy_port = sys.argv[1], int(sys.argv[2])
DEMO_KEY = "wl_live_demo0000000000000000000000000000"
VALIDATE = "/warplink/v1/sdk/validate"
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"PASS {name}")
    else:
        failed += 1
        print(f"FAIL {name}: {detail}")


def get(path, headers=None):
    request = urllib.request.Request(base + path, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


def scrape():
    status, headers, text = get("/__admin/metrics")
    check("GET /__admin/metrics answers 200", status == 200, status)
    check("its Content-Type is the 0.0.4 text format", headers.get("Content-Type") == "text/plain; version=0.0.4; charset=utf-8", headers)
    try:
        families = {family.name: family for family in text_string_to_metric_families(text)}
    except Exception as error:  # the parser's errors are plain ValueErrors and friends
        check("prometheus_client parses the exposition", False, repr(error))
        sys.exit(1)
    return families


def value(families, family, sample, **labels):
    return sum(s.value for s in families[family].samples if s.name == sample and all(s.labels.get(k) == v for k, v in labels.items()))


before = scrape()
check("prometheus_client parses the exposition", True)

# SDK traffic: 2xx, 4xx, a fault by header (5xx), an unmatched route.
for _ in range(3):
    get(VALIDATE, {"Authorization": "Bearer " + DEMO_KEY})
get(VALIDATE, {"Authorization": "Bearer wl_live_short"})
get(VALIDATE, {"Authorization": "Bearer " + DEMO_KEY, "X-Understudy-Fault": "status=503"})
get("/warplink/v1/no/such/route")

# A CONNECT through the proxy to a platform's real host, held open while scraping.
tunnel = socket.create_connection(("127.0.0.1", proxy_port), timeout=10)
tunnel.sendall(b"CONNECT api.warplink.app:443 HTTP/1.1\r\nHost: api.warplink.app:443\r\n\r\n")
answer = tunnel.recv(4096).decode(errors="replace")
check("the proxy accepts a CONNECT to an emulated host", answer.startswith("HTTP/1.1 200"), answer[:80])

after = scrape()
tunnel.close()

expected = {
    "understudy_requests": "counter",  # the parser drops a counter's _total suffix from the family name
    "understudy_request_duration_seconds": "histogram",
    "understudy_faults_fired": "counter",
    "understudy_journal_entries": "gauge",
    "understudy_journal_bytes": "gauge",
    "understudy_journal_evictions": "counter",
    "understudy_projects": "gauge",
    "understudy_open_connections": "gauge",
    "understudy_proxy_tunnels": "gauge",
    "understudy_database_bytes": "gauge",
    "understudy_uptime_seconds": "gauge",
    "understudy_build_info": "gauge",
}
for name, kind in expected.items():
    family = after.get(name)
    check(f"family {name} is a {kind}", family is not None and family.type == kind, family and family.type)
for family in after.values():
    check(f"family {family.name} has help text", bool(family.documentation))


def moved(label, sample, delta, **labels):
    change = value(after, label, sample, **labels) - value(before, label, sample, **labels)
    check(f"{sample}{labels} moved by {delta}", change == delta, change)


route = {"platform": "warplink", "route": VALIDATE}
moved("understudy_requests", "understudy_requests_total", 3, status_class="2xx", **route)
moved("understudy_requests", "understudy_requests_total", 1, status_class="4xx", **route)
moved("understudy_requests", "understudy_requests_total", 1, status_class="5xx", **route)
moved("understudy_requests", "understudy_requests_total", 1, platform="warplink", route="unmatched", status_class="4xx")
moved("understudy_requests", "understudy_requests_total", 1, platform="proxy", route="unmatched", status_class="2xx")
moved("understudy_faults_fired", "understudy_faults_fired_total", 1, rule="header", project="demo")
moved("understudy_request_duration_seconds", "understudy_request_duration_seconds_count", 6, platform="warplink")
check("an open proxy connection is counted", value(after, "understudy_open_connections", "understudy_open_connections", listener="proxy") >= 1)
check("the demo project is counted", value(after, "understudy_projects", "understudy_projects") >= 1)
check("the database has a size", value(after, "understudy_database_bytes", "understudy_database_bytes") > 0)

histogram = after["understudy_request_duration_seconds"]
for platform in sorted({s.labels["platform"] for s in histogram.samples}):
    buckets = [(float(s.labels["le"]), s.value) for s in histogram.samples if s.name.endswith("_bucket") and s.labels["platform"] == platform]
    buckets.sort()
    count = value(after, "understudy_request_duration_seconds", "understudy_request_duration_seconds_count", platform=platform)
    cumulative = all(a[1] <= b[1] for a, b in zip(buckets, buckets[1:]))
    check(f"{platform}: buckets are cumulative and +Inf equals _count", cumulative and buckets[-1] == (float("inf"), count), buckets)

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
