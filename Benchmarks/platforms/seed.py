#!/usr/bin/env python3
"""Seeding and checking helpers for Benchmarks/platforms.sh (stdlib only, loopback, one keep-alive connection).

  seed.py setup  BASE WORKDIR          create a project and everything the hot paths need; prints shell assignments
  seed.py links  BASE PROJECT COUNT    add COUNT WarpLink links (slugs many0…); prints the project's link count
  seed.py tokens BASE PROJECT FIRST N  mint Telematics tokens for users FIRST…FIRST+N-1; prints them comma-separated
  seed.py batches BASE PROJECT USERS   "<batches> <accepted samples> <batches short of 1,000>" for comma-separated user ids
  seed.py sessions BASE APIKEY N       N fresh Asleep users with an OPEN session each; prints user:session,…
  seed.py chunks BASE PROJECT PAIRS    chunks received by those sessions
  seed.py telemetry-bodies DIR RUN START_MS THREADS COUNT [USERS_PER_THREAD]
                                       COUNT gzip telemetry batches per wrk thread, as telemetry.lua would send them
                                       plain, into DIR/telemetry-<thread>.gz (bodies back to back) and .sizes
"""
import base64, datetime, gzip, http.client, json, random, sys, urllib.parse


class Client:
    def __init__(self, base):
        url = urllib.parse.urlsplit(base)
        assert url.hostname in ("127.0.0.1", "localhost", "::1"), "loopback only"
        self.conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)

    def call(self, method, path, body=None, headers=None, expect=None, raw=False):
        headers = dict(headers or {})
        data = body
        if body is not None and not isinstance(body, (bytes, bytearray)):
            data = json.dumps(body, separators=(",", ":")).encode()
            headers.setdefault("Content-Type", "application/json")
        self.conn.request(method, path, body=data, headers=headers)
        response = self.conn.getresponse()
        text = response.read()
        if expect is not None and response.status not in (expect if isinstance(expect, tuple) else (expect,)):
            sys.exit(f"seed.py: {method} {path} → {response.status} (expected {expect}): {text[:500]!r}")
        if raw:
            return response.status, text
        return json.loads(text) if text else None


def setup(base, work):
    c = Client(base)
    project = c.call("POST", "/__admin/projects", {"name": "platform-bench"}, expect=201)
    pid, creds = project["id"], project["credentials"]
    admin = f"/__admin/projects/{pid}"
    out = {"PROJECT": pid}

    # WarpLink: 10 links bench0…bench9 (app-less, the project has no apps).
    for i in range(10):
        c.call("POST", f"{admin}/warplink/links", {"slug": f"bench{i}", "destination_url": f"https://example.com/bench{i}",
                                                   "custom_params": {"a": "1"}}, expect=201)
    out["WL_SDK_KEY"] = creds["warplink"]["sdkKey"]
    with open(f"{work}/match.json", "w") as f:
        json.dump({"platform": "android", "sdk_version": "1.1.0", "fingerprint_version": "enriched_tz", "is_reinstall": False,
                   "accept_language": "en-US", "timezone_offset": -300, "timezone": "America/Toronto"}, f, separators=(",", ":"))

    # Asleep: a user and an OPEN session, through the SDK routes as initAsleepConfig + startTracking do.
    key = creds["asleep"]["apiKey"]
    sdk = {"x-api-key": key, "User-Agent": "AsleepSDK/3.3.0 (Understudy bench)"}
    user = c.call("POST", "/asleep/ai/v1/users", b"", headers=sdk, expect=201)["result"]["user_id"]
    session = c.call("POST", "/asleep/ai/v1/sessions", {}, headers={**sdk, "x-user-id": user}, expect=201)["result"]["session_id"]
    out.update(ASLEEP_KEY=key, ASLEEP_USER=user, ASLEEP_SESSION=session)
    size = 30 * 1024  # the same ~30 KB NumPy chunk asleep_upload.lua builds
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % ((size - 128) // 4)
    header = header + " " * (118 - len(header)) + "\n"
    npy = b"\x93NUMPY\x01\x00" + bytes([len(header) % 256, len(header) // 256]) + header.encode()
    with open(f"{work}/chunk.npy", "wb") as f:
        f.write(npy + bytes(size - len(npy)))

    # WarrantyLife: a user (admin), a voucher (admin), an item and a sensor event (SDK routes), a 1,000-reading gzip batch.
    wl_user = c.call("POST", f"{admin}/warrantylife/users", {"email": "bench@example.com", "password": "bench-password"}, expect=201)
    c.call("POST", f"{admin}/warrantylife/vouchers", {"code": "BENCH"}, expect=201)
    dev = creds["warrantylife"]["developerKey"]
    wl = {"X-WL-Developer-Key": dev, "Authorization": wl_user["authorization"]}
    base_path = "/warrantylife/mapi/wi/100"
    item = c.call("POST", f"{base_path}/items", {"deviceId": "BENCH-DEVICE", "categoryId": "95", "manufacturerName": "Apple",
                                                 "model": "iPhone", "mpn": "iPhone14,2"}, headers=wl, expect=201)["data"]["id"]
    event = c.call("PUT", f"{base_path}/items/{item}", {"eventAt": "2026-11-30 10:00:00.000", "sensorEventType": 1111},
                   headers=wl, expect=202)["data"]["sensorEventId"]
    rnd = random.Random(7)
    readings = [{"readingAt": "2026-11-30 10:%02d:%02d.%03d" % (i // 60000, (i // 1000) % 60, i % 1000),
                 "accelerationX": round(rnd.gauss(0, 0.05), 5), "accelerationY": round(rnd.gauss(0, 0.05), 5),
                 "accelerationZ": round(-9.81 + rnd.gauss(0, 0.05), 5), "gyroscopeX": round(rnd.gauss(0, 0.2), 5),
                 "gyroscopeY": round(rnd.gauss(0, 0.2), 5), "gyroscopeZ": round(rnd.gauss(0, 0.2), 5),
                 "magnetometerX": round(rnd.uniform(-50, 50), 3), "magnetometerY": round(rnd.uniform(-50, 50), 3),
                 "magnetometerZ": round(rnd.uniform(-50, 50), 3), "pitch": round(rnd.uniform(-3, 3), 5),
                 "roll": round(rnd.uniform(-3, 3), 5), "yaw": round(rnd.uniform(-3, 3), 5),
                 "relativeAltitude": -1, "pressure": -1, "phase": 5000} for i in range(1000)]
    raw = json.dumps(readings, separators=(",", ":")).encode()
    with open(f"{work}/readings.json.gz", "wb") as f:
        f.write(gzip.compress(raw, 6))
    out.update(WL_DEV_KEY=dev, WL_AUTH=wl_user["authorization"], WL_ITEM=item, WL_EVENT=event,
               WL_READINGS_RAW=len(raw), WL_READINGS_GZ=len(gzip.compress(raw, 6)))

    # Telematics: user 2 with 1,000 trips (one a day); ingest runs mint fresh users (100+) per run.
    trips = c.call("POST", f"{admin}/telematics/tokens", {"userId": 2, "userName": "Trips", "accessTtlSeconds": 86400}, expect=201)
    start = datetime.datetime(2023, 1, 1, 8, tzinfo=datetime.timezone.utc)
    iso = lambda d: d.strftime("%Y-%m-%dT%H:%M:%SZ")
    for day in range(1000):
        began = start + datetime.timedelta(days=day)
        c.call("POST", f"{admin}/telematics/trips", {"userId": 2, "startedAt": iso(began),
                                                     "endedAt": iso(began + datetime.timedelta(minutes=30)), "distanceKm": 20}, expect=201)
    out["TM_TRIPS_TOKEN"] = trips["token"]
    # A sanity batch for user 3, in the same shape telemetry.lua sends.
    out["TM_SANITY_TOKEN"] = c.call("POST", f"{admin}/telematics/tokens", {"userId": 3, "accessTtlSeconds": 86400}, expect=201)["token"]
    k = 1_700_000  # batch start in units of 1,000,000 ms
    samples = [{"timestampMs": k * 1_000_000 + i * 1000, "latitude": round(40.2 + i * 0.000135, 6), "longitude": -8.4, "speedMps": 15,
                "courseDeg": 0, "horizontalAccuracyM": 5, "screenLocked": True, "handsFree": False} for i in range(1000)]
    with open(f"{work}/telemetry-sanity.json", "w") as f:
        json.dump({"batchId": "bench-sanity", "deviceId": "understudy-bench", "platform": "ios", "samples": samples}, f, separators=(",", ":"))
    for name, value in out.items():
        print(f"{name}='{value}'")


def links(base, pid, count):
    c = Client(base)
    for i in range(int(count)):
        c.call("POST", f"/__admin/projects/{pid}/warplink/links", {"slug": f"many{i}", "destination_url": f"https://example.com/m{i}"}, expect=201)
    print(len(c.call("GET", f"/__admin/projects/{pid}/warplink/links", expect=200)["links"]))


def tokens(base, pid, first, n):
    c = Client(base)
    minted = [c.call("POST", f"/__admin/projects/{pid}/telematics/tokens", {"userId": int(first) + i, "accessTtlSeconds": 86400},
                     expect=201)["token"] for i in range(int(n))]
    print(",".join(minted))


def batches(base, pid, users):
    c = Client(base)
    count = accepted = short = 0
    for user in users.split(","):
        for batch in c.call("GET", f"/__admin/projects/{pid}/telematics/batches?userId={user}", expect=200)["batches"]:
            count += 1
            accepted += batch["accepted"]
            short += batch["accepted"] != 1000
    print(count, accepted, short)


def sessions(base, key, n):
    """N fresh Asleep users, each with an OPEN session (SDK routes); prints `user:session,…`."""
    c = Client(base)
    sdk = {"x-api-key": key, "User-Agent": "AsleepSDK/3.3.0 (Understudy bench)"}
    pairs = []
    for _ in range(int(n)):
        user = c.call("POST", "/asleep/ai/v1/users", b"", headers=sdk, expect=201)["result"]["user_id"]
        session = c.call("POST", "/asleep/ai/v1/sessions", {}, headers={**sdk, "x-user-id": user}, expect=201)["result"]["session_id"]
        pairs.append(f"{user}:{session}")
    print(",".join(pairs))


def chunks(base, pid, pairs):
    """Chunks received by the sessions of a `user:session,…` list."""
    c = Client(base)
    print(sum(c.call("GET", f"/__admin/projects/{pid}/asleep/sessions/{pair.split(':')[1]}", expect=200)["receivedChunks"]
              for pair in pairs.split(",")))


def telemetry_bodies(out, run, start_ms, threads, count, per_thread="1"):
    """Gzip telemetry batches made ahead of a run: wrk's Lua has no zlib, and compressing 150 KB per request
    in the client would cost the two cores the server is measured on. Request n of thread t is the body
    telemetry.lua makes for it (batchId bench-r<run>-t<t>-<n>, samples of batch n // per_thread)."""
    parts = [f'{{"timestampMs":@{i:03d}000,"latitude":{40.2 + i * 0.000135:.6f},"longitude":-8.4,"speedMps":15,'
             f'"courseDeg":0,"horizontalAccuracyM":5,"screenLocked":true,"handsFree":false}}' for i in range(1000)]
    samples = '","deviceId":"understudy-bench","platform":"ios","samples":[' + ",".join(parts) + "]}"
    first = int(start_ms) // 1_000_000
    for thread in range(int(threads)):
        with open(f"{out}/telemetry-{thread}.gz", "wb") as bodies, open(f"{out}/telemetry-{thread}.sizes", "w") as sizes:
            for n in range(int(count)):
                body = f'{{"batchId":"bench-r{run}-t{thread}-{n}' + samples.replace("@", str(first + n // int(per_thread)))
                data = gzip.compress(body.encode(), compresslevel=6, mtime=0)  # zlib's default, as clients use
                bodies.write(data)
                sizes.write(f"{len(data)}\n")


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    {"setup": setup, "links": links, "tokens": tokens, "batches": batches, "sessions": sessions, "chunks": chunks,
     "telemetry-bodies": telemetry_bodies}[command](*args)
