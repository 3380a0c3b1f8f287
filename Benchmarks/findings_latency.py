#!/usr/bin/env python3
"""How soon a finding can be read after the request that broke the rule.

  findings_latency.py BIN WORKDIR [--rounds 200] [--wait-ms 0]

Starts BIN on a fresh SQLite file in WORKDIR and, on one keep-alive connection per role, repeats
ROUNDS times: registers an Asleep product, registers it again (the offending request: rule
`asleep.setup-repeated`), optionally sleeps WAIT-MS, then reads `GET …/findings?device=…` until
the finding is there. Prints the time from the offending request's answer to the first listing
that holds its finding (median, p95, max, in ms), how many listings that took, and the offending
request's own round trip. A listing waits for findings still being written, so one listing always
suffices; WAIT-MS > 0 shows the same with the write already done.
"""
import argparse, http.client, json, os, statistics, subprocess, sys, time

HOST = "127.0.0.1"


def request(connection, method, path, body=None, headers=None):
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    return response.status, response.read()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("workdir")
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--wait-ms", type=float, default=0)
    args = parser.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    log = open(os.path.join(args.workdir, "understudy.log"), "w")
    server = subprocess.Popen(
        [args.binary, "--port", "0", "--https-port", "0", "--proxy-port", "0", "--fixtures", "", "--no-request-log",
         "--database", os.path.join(args.workdir, "latency.sqlite")], stdout=log, stderr=subprocess.STDOUT)
    try:
        port = None
        for _ in range(400):
            text = open(os.path.join(args.workdir, "understudy.log")).read()
            if "listening url=http://127.0.0.1:" in text:
                port = int(text.split("listening url=http://127.0.0.1:")[1].split()[0].rstrip("/"))
                break
            time.sleep(0.025)
        if port is None:
            sys.exit("the server did not start")
        admin = http.client.HTTPConnection(HOST, port, timeout=30)
        app = http.client.HTTPConnection(HOST, port, timeout=30)
        for _ in range(200):
            try:
                if request(admin, "GET", "/__admin/ready")[0] == 200:
                    break
            except OSError:
                admin = http.client.HTTPConnection(HOST, port, timeout=30)
            time.sleep(0.05)
        status, body = request(admin, "POST", "/__admin/projects", json.dumps({"name": "latency"}))
        project = json.loads(body)
        key = project["credentials"]["asleep"]["apiKey"]
        headers = {"x-api-key": key, "User-Agent": "AsleepSDK/3.3.0", "Content-Type": "application/json"}
        latencies, listings, offending = [], [], []
        for round_ in range(args.rounds):
            registration = json.dumps({"model": "bedside-1", "identifier_type": "SERIAL", "identifier_value": f"SN-{round_}"})
            assert request(app, "POST", "/asleep/ai/v1/products", registration, headers)[0] == 201
            sent = time.perf_counter()
            assert request(app, "POST", "/asleep/ai/v1/products", registration, headers)[0] == 200
            answered = time.perf_counter()
            offending.append((answered - sent) * 1000)
            if args.wait_ms:
                time.sleep(args.wait_ms / 1000)
            count = 0
            while True:
                count += 1
                status, body = request(admin, "GET", f"/__admin/projects/{project['id']}/findings?device=SERIAL:SN-{round_}")
                if status == 200 and json.loads(body)["findings"]:
                    break
            latencies.append((time.perf_counter() - answered) * 1000)
            listings.append(count)
        latencies.sort()
        print(f"rounds {args.rounds}, wait {args.wait_ms} ms before reading")
        print(f"offending request → finding listed: median {statistics.median(latencies):.2f} ms, "
              f"p95 {latencies[int(len(latencies) * 0.95) - 1]:.2f} ms, max {latencies[-1]:.2f} ms; "
              f"listings needed: max {max(listings)}")
        print(f"the offending request's round trip: median {statistics.median(offending):.2f} ms")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
