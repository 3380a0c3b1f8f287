#!/usr/bin/env python3
"""kill -9 durability: every write the server acknowledged must be there after a restart on the same file.

  durability.py BIN WORKDIR TRIALS WRITERS MIN_SECONDS MAX_SECONDS

Each trial: (re)start BIN on WORKDIR/durability.sqlite (one file for all trials), make a project and what the
writers need, run WRITERS threads per platform (each its own keep-alive connection) that record every write
answered 2xx, SIGKILL the server at a random moment between MIN and MAX seconds into the load, restart it on
the same file, and read every acknowledged write back through the control plane. Writes:
  WarpLink attribution match (a distinct device_id each)      → GET …/warplink/installs
  WarrantyLife sensor event (a distinct eventAt each)           → GET …/warrantylife/sensor-events?itemId=
  Telematics telemetry batch (a distinct batchId, 50 samples)  → GET …/telematics/batches?userId=
  Asleep 30 KB upload (seq_num 0, 1, 2… on one session each)   → GET …/asleep/sessions/{id} (receivedChunks)
A request whose answer never arrived is not acknowledged, so it may be there or not. Exit 1 if any
acknowledged write is missing (or the server does not come back).
"""
import http.client, json, os, random, re, signal, subprocess, sys, threading, time, uuid

HOST = "127.0.0.1"


class Server:
    def __init__(self, binary, work):
        self.binary, self.work, self.process, self.port = binary, work, None, None

    def start(self):
        log = open(os.path.join(self.work, "understudy.log"), "ab")
        mark = log.tell()
        self.process = subprocess.Popen([self.binary, "--port", "0", "--https-port", "0", "--proxy-port", "0",
                                         "--database", os.path.join(self.work, "durability.sqlite"), "--no-request-log"],
                                        stdout=log, stderr=subprocess.STDOUT)
        deadline = time.time() + 30
        while time.time() < deadline:
            with open(os.path.join(self.work, "understudy.log"), "rb") as f:
                f.seek(mark)
                found = re.search(rb"listening url=http://127\.0\.0\.1:(\d+)", f.read())
            if found:
                self.port = int(found.group(1))
                if call(self.port, "GET", "/__admin/ready")[0] == 200:
                    return
            if self.process.poll() is not None:
                break
            time.sleep(0.02)
        raise SystemExit(f"durability: the server did not start (see {self.work}/understudy.log)")

    def kill9(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        """SIGTERM; says so when the server needs more than one (a graceful stop should take one)."""
        if not self.process or self.process.poll() is not None:
            return
        for attempt in range(1, 4):
            self.process.terminate()
            try:
                code = self.process.wait(10)
                if attempt > 1:
                    print(f"warning: the server stopped only after SIGTERM number {attempt} (exit {code}); the first was ignored for 10 s")
                return
            except subprocess.TimeoutExpired:
                pass
        print("warning: the server ignored three SIGTERMs; killed")
        self.process.kill()
        self.process.wait()


def call(port, method, path, body=None, headers=None, connection=None):
    """(status, parsed JSON or raw bytes) over a new or the given connection."""
    c = connection or http.client.HTTPConnection(HOST, port, timeout=10)
    headers = dict(headers or {})
    if body is not None and not isinstance(body, (bytes, bytearray)):
        body = json.dumps(body, separators=(",", ":")).encode()
        headers.setdefault("Content-Type", "application/json")
    try:
        c.request(method, path, body=body, headers=headers)
        r = c.getresponse()
        data = r.read()
    except (OSError, http.client.HTTPException):
        if connection is None:
            c.close()
        if connection is not None:
            raise
        return 0, None
    if connection is None:
        c.close()
    try:
        return r.status, json.loads(data) if data else None
    except ValueError:
        return r.status, data


def must(port, method, path, body=None, headers=None, expect=(200, 201)):
    status, data = call(port, method, path, body, headers)
    if status not in expect:
        raise SystemExit(f"durability: {method} {path} → {status}: {str(data)[:300]}")
    return data


def npy_chunk(size=30 * 1024):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % ((size - 128) // 4)
    header = header + " " * (118 - len(header)) + "\n"
    head = b"\x93NUMPY\x01\x00" + bytes([len(header) % 256, len(header) // 256]) + header.encode()
    return head + bytes(size - len(head))


CHUNK = npy_chunk()
BOUNDARY = "durability-boundary"


def multipart(seq):
    return (f"--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"seq_num\"\r\n\r\n{seq}\r\n--{BOUNDARY}\r\n"
            f"Content-Disposition: form-data; name=\"file\"; filename=\"{seq}.npy\"\r\nContent-Type: application/octet-stream\r\n\r\n"
            ).encode() + CHUNK + f"\r\n--{BOUNDARY}--\r\n".encode()


def prepare(port, writers, trial):
    """A fresh project and, per writer, what it writes to (acknowledged before the load starts)."""
    project = must(port, "POST", "/__admin/projects", {"name": f"durability-{trial}"})
    pid, creds = project["id"], project["credentials"]
    admin = f"/__admin/projects/{pid}"
    wl_user = must(port, "POST", f"{admin}/warrantylife/users", {"email": f"d{trial}@example.com", "password": "durability"})
    wy = {"X-WL-Developer-Key": creds["warrantylife"]["developerKey"], "Authorization": wl_user["authorization"]}
    asleep = {"x-api-key": creds["asleep"]["apiKey"], "User-Agent": "AsleepSDK/3.3.0 (durability)"}
    jobs = []
    for w in range(writers):
        jobs.append(("warplink", {"headers": {"Authorization": f"Bearer {creds['warplink']['sdkKey']}", "User-Agent": "WarpLink-Android/1.1.0"}}))
        item = must(port, "POST", "/warrantylife/mapi/wi/100/items", {"deviceId": f"DUR-{trial}-{w}", "categoryId": "95", "manufacturerName": "Apple",
                                                                       "model": "iPhone", "mpn": "iPhone14,2"}, wy)["data"]["id"]
        jobs.append(("warrantylife", {"headers": wy, "item": item}))
        token = must(port, "POST", f"{admin}/telematics/tokens", {"userId": 100 + w, "accessTtlSeconds": 86400})["token"]
        jobs.append(("telematics", {"headers": {"Authorization": f"Bearer {token}"}, "user": 100 + w}))
        user = must(port, "POST", "/asleep/ai/v1/users", b"", asleep)["result"]["user_id"]
        session = must(port, "POST", "/asleep/ai/v1/sessions", {}, {**asleep, "x-user-id": user})["result"]["session_id"]
        jobs.append(("asleep", {"headers": {**asleep, "x-user-id": user, "Content-Type": f"multipart/form-data; boundary={BOUNDARY}"},
                                "session": session}))
    return pid, jobs


def writer(port, platform, job, acked, killed, errors):
    """Writes until the server dies; appends to `acked` what was answered 2xx."""
    connection = http.client.HTTPConnection(HOST, port, timeout=10)
    n = 0
    start_ms = 1_700_000_000_000 + random.randrange(1_000_000) * 1000
    while True:
        if platform == "warplink":
            key = str(uuid.uuid4())
            request = ("POST", "/warplink/v1/attribution/match", {"platform": "android", "sdk_version": "1.1.0", "fingerprint_version": "enriched_tz",
                       "is_reinstall": False, "accept_language": "en-US", "timezone_offset": -300, "timezone": "America/Toronto", "device_id": key})
        elif platform == "warrantylife":
            key = "2026-11-30 %02d:%02d:%02d.%03d" % (n // 3_600_000 % 24, n // 60_000 % 60, n // 1000 % 60, n % 1000)
            request = ("PUT", f"/warrantylife/mapi/wi/100/items/{job['item']}", {"eventAt": key, "sensorEventType": 1111})
        elif platform == "telematics":
            key = f"dur-{uuid.uuid4()}"
            first = start_ms + n * 50_000
            samples = [{"timestampMs": first + i * 1000, "latitude": 40.2 + i * 0.0001, "longitude": -8.4, "speedMps": 15, "courseDeg": 0,
                        "horizontalAccuracyM": 5} for i in range(50)]
            request = ("POST", "/telematics/api/v1/telemetry", {"batchId": key, "deviceId": "durability", "platform": "ios", "samples": samples})
        else:
            key = n
            request = ("POST", f"/asleep/ai/v1/sessions/{job['session']}/upload", multipart(n))
        try:
            status, _ = call(port, *request, headers=job["headers"], connection=connection)
        except (OSError, http.client.HTTPException):
            if killed.is_set():
                return
            errors.append(platform)
            connection.close()
            connection = http.client.HTTPConnection(HOST, port, timeout=10)
            time.sleep(0.01)
            continue
        if 200 <= status < 300:
            acked.append(key)
            n += 1
        elif not killed.is_set():
            errors.append(f"{platform} HTTP {status}")
            if len(errors) > 50:
                return


def found(port, pid, platform, job, keys):
    """How many of `keys` (one writer's acknowledged writes) the restarted server has."""
    admin = f"/__admin/projects/{pid}"
    if platform == "warplink":
        return None  # counted per project in verify(): the installs list is project-wide
    if platform == "warrantylife":
        rows = must(port, "GET", f"{admin}/warrantylife/sensor-events?itemId={job['item']}")["sensorEvents"]
        have = {r["eventAt"] for r in rows}
    elif platform == "telematics":
        rows = must(port, "GET", f"{admin}/telematics/batches?userId={job['user']}")["batches"]
        have = {r["batchId"] for r in rows}
    else:
        session = must(port, "GET", f"{admin}/asleep/sessions/{job['session']}")
        # seq_nums were sent one after another from 0: the acknowledged ones are 0…k-1
        missing = set(session.get("missingSeqNums") or [])
        have = {k for k in keys if k < session["receivedChunks"] + len(missing) and k not in missing}
    return sum(k in have for k in keys)


def main(binary, work, trials, writers, low, high):
    trials, writers, low, high = int(trials), int(writers), float(low), float(high)
    server = Server(binary, work)
    server.start()
    totals = {}
    lost_any = False
    print(f"{'trial':>5} {'kill at':>8}  " + "  ".join(f"{p:>24}" for p in ("warplink", "warrantylife", "telematics", "asleep")) + "   (acked/found/lost)")
    try:
        for trial in range(1, trials + 1):
            pid, jobs = prepare(server.port, writers, trial)
            killed = threading.Event()
            results = [[] for _ in jobs]
            errors = []
            threads = [threading.Thread(target=writer, args=(server.port, p, j, results[i], killed, errors), daemon=True)
                       for i, (p, j) in enumerate(jobs)]
            for t in threads:
                t.start()
            delay = random.uniform(low, high)
            time.sleep(delay)
            killed.set()
            server.kill9()
            for t in threads:
                t.join(15)
            server.start()
            row = {}
            installs = {r["device_id"] for r in must(server.port, "GET", f"/__admin/projects/{pid}/warplink/installs?limit=10000")["installs"]}
            for (platform, job), keys in zip(jobs, results):
                have = sum(k in installs for k in keys) if platform == "warplink" else found(server.port, pid, platform, job, keys)
                a, f = row.get(platform, (0, 0))
                row[platform] = (a + len(keys), f + have)
            cells = []
            for platform in ("warplink", "warrantylife", "telematics", "asleep"):
                a, f = row.get(platform, (0, 0))
                ta, tf = totals.get(platform, (0, 0))
                totals[platform] = (ta + a, tf + f)
                lost_any |= f < a
                cells.append(f"{a:>8}/{f:>7}/{a - f:<7}")
            note = f"  ({len(errors)} errors before the kill: {sorted(set(errors))[:3]})" if errors else ""
            print(f"{trial:>5} {delay:>7.2f}s  " + "  ".join(f"{c:>24}" for c in cells) + note, flush=True)
    finally:
        server.stop()
    acked = sum(a for a, _ in totals.values())
    lost = sum(a - f for a, f in totals.values())
    print(f"total over {trials} kill -9 trials: {acked} acknowledged writes, {acked - lost} found, {lost} lost — "
          + ", ".join(f"{p} {a}/{f}/{a - f}" for p, (a, f) in totals.items()))
    if lost_any:
        print("FAILED: acknowledged writes were lost")
        sys.exit(1)
    print("every acknowledged write survived kill -9")


if __name__ == "__main__":
    main(*sys.argv[1:])
