#!/usr/bin/env python3
"""Seeding for Benchmarks/hotpaths.sh (stdlib only, loopback; reuses Benchmarks/platforms/seed.py's client).

  prepare.py setup BASE WORKDIR   a project with what every measured route needs; prints shell assignments
                                  and writes the request bodies (match.json, sensor.json, readings.json.gz,
                                  chunk.npy) into WORKDIR
  prepare.py flat  BASE [PREFIX NAME]  a project NAME with 10 links, 10 vouchers and 10 trips of one user;
                                  prints shell assignments (PREFIX_*, FLAT_* by default)
  prepare.py failures BASE PROJECT  the project's journalled 4xx/5xx answers (newest 1,000 of each class),
                                  one "journal <count> × <status> <method> <route>: <body>" line per kind
"""
import datetime, json, os, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "platforms"))
import seed  # noqa: E402  (Benchmarks/platforms/seed.py: Client, and the bodies platforms.sh sends)

WLM = "/warrantylife/mapi/wi/100"
ISO = "%Y-%m-%dT%H:%M:%SZ"


def trips(c, admin, user, count, first_day):
    """`count` 30-minute trips of `user`, one a day from 2023-01-01 + first_day."""
    start = datetime.datetime(2023, 1, 1, 8, tzinfo=datetime.timezone.utc)
    for day in range(first_day, first_day + count):
        began = start + datetime.timedelta(days=day)
        c.call("POST", f"{admin}/telematics/trips", {"userId": user, "startedAt": began.strftime(ISO),
                                                     "endedAt": (began + datetime.timedelta(minutes=30)).strftime(ISO),
                                                     "distanceKm": 20}, expect=201)


def setup(base, work):
    # seed.setup builds the WarpLink, Asleep and WarrantyLife pieces platforms.sh measures (and 1,000 trips
    # of user 2, which this benchmark does not list); its shell assignments are kept.
    saved = sys.stdout
    with open(os.path.join(work, "platforms-env.sh"), "w") as sys.stdout:
        seed.setup(base, work)
    sys.stdout = saved
    out = {}
    for line in open(os.path.join(work, "platforms-env.sh")):
        name, _, value = line.strip().partition("=")
        out[name] = value.strip("'")
    c = seed.Client(base)
    pid = out["PROJECT"]
    admin = f"/__admin/projects/{pid}"

    # Asleep: a finished 8-hour session of the same user, for the report fetch.
    session = c.call("POST", f"{admin}/asleep/sessions", {"userId": out["ASLEEP_USER"], "state": "COMPLETE", "chunks": 960,
                                                          "endTime": "2026-11-30T07:00:00.000Z", "timezone": "Europe/Berlin"},
                     expect=201)["sessionId"]
    out["ASLEEP_REPORT_SESSION"] = session

    # WarrantyLife: the sensor event body the SDK sends when a device registers (every PUT stores a row).
    with open(f"{work}/sensor.json", "w") as f:
        json.dump({"eventAt": "2026-11-30 10:00:00.000", "sensorEventType": 1111}, f, separators=(",", ":"))

    # Telematics: user 4 with exactly 100 trips (the trips list) who also answers /users/me.
    token = c.call("POST", f"{admin}/telematics/tokens", {"userId": 4, "userName": "Hundred Trips", "accessTtlSeconds": 86400},
                   expect=201)["token"]
    trips(c, admin, 4, 100, 0)
    out["TM_HUNDRED_TOKEN"] = token
    for name, value in out.items():
        print(f"{name}='{value}'")


def flat(base, prefix="FLAT", name="flatness-bench"):
    """A project with 10 links, vouchers and trips, and one covered device; its credentials as PREFIX_* shell variables."""
    c = seed.Client(base)
    project = c.call("POST", "/__admin/projects", {"name": name}, expect=201)
    pid, creds = project["id"], project["credentials"]
    admin = f"/__admin/projects/{pid}"
    for i in range(10):
        c.call("POST", f"{admin}/warplink/links", {"slug": f"flat{i}", "destination_url": f"https://example.com/flat{i}"}, expect=201)
        c.call("POST", f"{admin}/warrantylife/vouchers", {"code": f"FLAT{i}"}, expect=201)
    user = c.call("POST", f"{admin}/warrantylife/users", {"email": "flat@example.com", "password": "flat-password"}, expect=201)
    # The looked-up device is registered and covered, so a lookup also reads that item's warranties
    # (in the large project among as many other devices' warranties as it has vouchers).
    c.call("POST", f"{admin}/warrantylife/items", {"deviceId": "FLAT-DEVICE", "ownerEmail": "flat@example.com"}, expect=201)
    c.call("POST", f"{admin}/warrantylife/warranties", {"deviceId": "FLAT-DEVICE"}, expect=201)
    token = c.call("POST", f"{admin}/telematics/tokens", {"userId": 7, "userName": "Ten Trips", "accessTtlSeconds": 86400}, expect=201)["token"]
    trips(c, admin, 7, 10, 0)
    # The large project's bulk trips go to user 8, so user 7's list stays the same 10 trips.
    c.call("POST", f"{admin}/telematics/tokens", {"userId": 8, "userName": "Bulk", "accessTtlSeconds": 86400}, expect=201)
    print(f"{prefix}_PROJECT='{pid}'")
    print(f"{prefix}_WL_SDK_KEY='{creds['warplink']['sdkKey']}'")
    print(f"{prefix}_WL_DEV_KEY='{creds['warrantylife']['developerKey']}'")
    print(f"{prefix}_WL_AUTH='{user['authorization']}'")
    print(f"{prefix}_TM_TOKEN='{token}'")


def failures(base, pid):
    c = seed.Client(base)
    kinds = {}
    for status in ("4xx", "5xx", "0xx"):
        for entry in c.call("GET", f"/__admin/projects/{pid}/requests?status={status}&limit=1000", expect=200)["requests"]:
            key = (entry["status"], entry["method"], entry.get("route") or entry["path"], (entry.get("responseBody") or "")[:160])
            kinds[key] = kinds.get(key, 0) + 1
    for (status, method, route, body), count in sorted(kinds.items(), key=lambda kv: -kv[1]):
        print(f"journal {count} × {status} {method} {route}: {body}")


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    {"setup": setup, "flat": flat, "failures": failures}[command](*args)
