"""Browser tests of the platform pictures, of every page rendering cleanly, and of large state."""

import concurrent.futures
import math
import time

from harness import http
from tests_core import test, ui

STAGES = [0] * 10 + [1] * 30 + [2] * 20 + [3] * 20 + [1] * 30 + [0] * 10


@test
def asleep_session_is_drawn_as_a_hypnogram_with_one_mark_per_epoch(t):
    b = t.browser
    project = t.admin.project("asleep-hypnogram")
    base = f"/__admin/projects/{project['id']}/asleep"
    sleeper = f"dash-sleeper-{project['id']}"  # Asleep user ids are unique across projects
    t.admin.call("POST", base + "/users", {"userId": sleeper}, expect=201)
    session = t.admin.call("POST", base + "/sessions", {"userId": sleeper, "state": "COMPLETE", "chunks": len(STAGES),
                                                        "sleepStages": STAGES, "startTime": "2026-03-01T22:00:00Z", "timezone": "Europe/Lisbon"}, expect=201)
    b.open(ui(t, project["id"], "asleep"))
    b.wait_page()
    b.find(f"[data-role=session-list] tbody tr").click()
    b.wait(lambda: b.count("svg[data-role=hypnogram]") == 1, message="the hypnogram")
    assert session["sessionId"] in b.driver.current_url, "the session is in the URL"
    marks = "svg[data-role=hypnogram] rect.epoch"
    assert b.count(marks) == len(STAGES), f"{b.count(marks)} marks for {len(STAGES)} epochs"
    for stage in (0, 1, 2, 3):
        assert b.count(f"{marks}.stage-{stage}") == STAGES.count(stage), f"stage {stage}"
    xs = b.js("return [...document.querySelectorAll(arguments[0])].map(r => Number(r.getAttribute('x')))", marks)
    assert xs == sorted(xs) and len(set(xs)) == len(xs), "one mark per epoch, left to right in time"
    lanes = b.js("return [...document.querySelectorAll(arguments[0])].map(r => Number(r.getAttribute('y')))", marks)
    assert lanes[0] < lanes[45] and lanes[45] > lanes[15], "deep sleep is drawn below light sleep, wake on top"
    assert "sleep efficiency" in b.text("[data-role=session-report]").lower()
    b.driver.refresh()
    b.wait(lambda: b.count(marks) == len(STAGES), message="the hypnogram after a reload")
    b.screenshot("asleep")


def drive(start_ms, count):
    return [{"timestampMs": start_ms + i * 5000, "latitude": 38.70 + 0.004 * math.sin(i / 6), "longitude": -9.14 + i * 0.0012,
             "speedKmh": 10 + i * 2.8} for i in range(count)]


@test
def telematics_trip_is_a_polyline_with_one_point_per_sample(t):
    b = t.browser
    project = t.admin.project("telematics-trip")
    base = f"/__admin/projects/{project['id']}/telematics"
    t.admin.call("POST", base + "/users", {"userId": 7001, "userName": "Dash Driver"}, expect=201)
    samples = drive(1796000000000, 40)
    events = [{"type": "hardBraking", "timestampMs": samples[10]["timestampMs"], "latitude": samples[10]["latitude"], "longitude": samples[10]["longitude"]},
              {"type": "speeding", "timestampMs": samples[25]["timestampMs"], "value": 12}]
    trip = t.admin.call("POST", base + "/trips", {"userId": 7001, "samples": samples, "events": events}, expect=201)
    vehicle = t.admin.call("POST", base + "/vehicles", {"plate": "DASH-01", "type": 1, "fuelType": 1}, expect=201)
    for km, day in [(1000, "2026-01-01"), (1800, "2026-02-01"), (2500, "2026-03-01")]:
        t.admin.call("POST", base + f"/vehicles/{vehicle['id']}/kilometers", {"kilometers": km, "readAt": f"{day}T08:00:00Z"}, expect=201)
    b.open(ui(t, project["id"], "telematics", f"trip={trip['id']}&vehicle={vehicle['id']}"))
    b.wait(lambda: b.count("svg[data-role=trip-map] polyline.trip-route") == 1, message="the trip's route")
    points = b.js("return document.querySelector('polyline.trip-route').getAttribute('points').trim().split(/\\s+/).length")
    assert points == len(samples), f"{points} points for {len(samples)} samples"
    assert b.count("svg[data-role=trip-map] line.speed-segment") == len(samples) - 1
    colours = set(b.js("return [...document.querySelectorAll('line.speed-segment')].map(l => l.getAttribute('stroke'))"))
    assert len(colours) > 5, "segments are coloured by speed"
    assert b.count("svg[data-role=trip-map] .event-mark") == 2 and b.count(".event-mark.event-brake") == 1 and b.count(".event-mark.event-speeding") == 1
    b.wait(lambda: b.count("svg[data-role=kilometres-chart] circle.dot-mark") == 3, message="the kilometre history")
    b.screenshot("telematics")


@test
def warplink_timeline_joins_each_install_to_the_click_it_claimed(t):
    b = t.browser
    project = t.admin.project("warplink-attribution")
    base = f"/__admin/projects/{project['id']}/warplink"
    link = t.admin.call("POST", base + "/links", {"slug": "spring", "destination_url": "https://shop.example/spring"}, expect=201)
    t.admin.call("POST", base + "/links", {"slug": "other", "destination_url": "https://shop.example/other"}, expect=201)
    device = "6F9619FF-8B86-D011-B42D-00C04FC964FF"
    t.admin.call("POST", base + "/clicks", {"link_id": link["id"], "device_id": device, "age_seconds": 120}, expect=201)
    t.admin.call("POST", base + "/clicks", {"link_id": link["id"], "age_seconds": 60}, expect=201)
    key = project["credentials"]["warplink"]["sdkKey"]
    match = http(t.server.url, "POST", "/warplink/v1/attribution/match", {"platform": "ios", "sdk_version": "1.0.0", "fingerprint_version": "basic", "app_bundle_id": "com.example.app",
                                                                          "device_id": device, "timezone": "Europe/Lisbon", "language": "en-GB"},
                 {"Authorization": f"Bearer {key}"})
    assert match.status == 200 and match.json()["matched"], match.body
    b.open(ui(t, project["id"], "warplink", f"link={link['id']}"))
    b.wait(lambda: b.count("[data-role=link-detail] svg[data-role=attribution-timeline] .click-mark") == 2, message="the link's timeline")
    detail = "[data-role=link-detail] svg[data-role=attribution-timeline]"
    assert b.count(f"{detail} .click-mark.claimed") == 1 and b.count(f"{detail} .click-mark.unclaimed") == 1
    assert b.count(f"{detail} .install-mark.matched") == 1 and b.count(f"{detail} line.claim-line") == 1
    b.screenshot("warplink")


@test
def warrantylife_vouchers_show_the_action_and_readings_are_charted(t):
    b = t.browser
    project = t.admin.project("warrantylife-state")
    base = f"/__admin/projects/{project['id']}/warrantylife"
    user = t.admin.call("POST", base + "/users", {"email": "owner@example.com", "password": "pw"}, expect=201)
    t.admin.call("POST", base + "/vouchers", {"code": "DASH-NORMAL"}, expect=201)
    t.admin.call("POST", base + "/vouchers", {"code": "DASH-REDEEMED", "status": "redeemed"}, expect=201)
    item = t.admin.call("POST", base + "/items", {"deviceId": "DASH-DEVICE", "userId": user["userId"], "model": "iPhone 15"}, expect=201)
    sdk = "/warrantylife/mapi/wi/100"
    headers = {"X-WL-Developer-Key": project["credentials"]["warrantylife"]["developerKey"], "Authorization": user["authorization"]}
    event = http(t.server.url, "PUT", f"{sdk}/items/{item['id']}", {"eventAt": "2026-03-01 10:00:00.000", "sensorEventType": 1200, "deviceId": "DASH-DEVICE"}, headers)
    assert event.status == 202, event.body
    event_id = event.json()["data"]["sensorEventId"]
    readings = [{"readingAt": f"2026-03-01 10:00:00.{i:03d}", "accelerationX": math.sin(i / 5), "accelerationY": math.cos(i / 5), "accelerationZ": -9.81 + i / 100}
                for i in range(60)]
    uploaded = http(t.server.url, "POST", f"{sdk}/items/{item['id']}/events/{event_id}/readings", readings, headers)
    assert uploaded.status == 201, uploaded.body
    b.open(ui(t, project["id"], "warrantylife", f"item={item['id']}"))
    b.wait(lambda: b.count("[data-role=voucher-action]") == 2, message="the voucher actions")
    actions = b.text("[data-role=vouchers]")
    assert "normalRegistration" in actions and "voucher_redeemed" in actions, actions
    b.wait(lambda: b.count("svg[data-role=readings-chart] polyline.series") == 3, message="the readings chart")
    points = b.js("return document.querySelector('svg[data-role=readings-chart] polyline.series').getAttribute('points').trim().split(/\\s+/).length")
    assert points == len(readings), points
    b.screenshot("warrantylife")


PAGES = ["", "journal", "faults", "clock", "snapshots", "outbox", "warplink", "asleep", "warrantylife", "telematics"]


@test
def every_page_renders_without_errors_and_survives_a_reload(t):
    b = t.browser
    b.console_errors()  # drop what earlier tests logged
    for section in PAGES:
        b.open(ui(t, "demo", section))
        b.wait_page()
        assert b.count("main .error-box") == 0, f"{section or 'overview'}: {b.text('main .error-box')}"
        active = b.text("#sidebar a.active")
        assert active and active.strip().lower() == (section or "overview"), f"sidebar marks {active!r} on {section!r}"
        b.screenshot(f"page-{section or 'overview'}")
    b.open(ui(t, "demo", "warplink"))
    b.wait_page()
    b.find("#sidebar a[href$='/asleep']").click()
    b.wait(lambda: b.driver.current_url.endswith("/asleep") and b.text("main h1") == "Asleep", message="client-side navigation")
    b.driver.back()
    b.wait(lambda: b.text("main h1") == "WarpLink", message="the back button")
    b.open(ui(t, "no-such-project", "journal"))
    b.wait(lambda: b.text("main h1") == "No such project", message="a clear message for a missing project")
    errors = [entry for entry in b.console_errors() if "no-such-project" not in entry["message"]]
    assert not errors, errors


@test
def large_state_opens_quickly(t):
    b = t.browser
    project = t.admin.project("large-state")
    base = f"/__admin/projects/{project['id']}"
    started = time.time()
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        failures = [r.status for r in pool.map(lambda i: http(t.server.url, "POST", base + "/warplink/links",
                                                                {"slug": f"bulk-{i}", "destination_url": f"https://shop.example/{i}"}), range(10000)) if r.status != 201]
    assert not failures, failures[:5]
    key = project["credentials"]["warplink"]["sdkKey"]
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda i: http(t.server.url, "GET", "/warplink/v1/sdk/validate", headers={"Authorization": f"Bearer {key}"}), range(100)))
    total = len(t.admin.call("GET", base + "/requests?limit=1000")["requests"])
    assert total == 1000
    print(f"    seeded 10,000 links (10,000 journal entries) and 100 SDK requests in {time.time() - started:.1f} s")
    timings = {}
    for name, section, query, ready in [
        # At least a page: the live poll may already have appended the page's own project fetch.
        ("journal", "journal", "admin=show", lambda: b.count("[data-role=journal-rows] tr") >= 100),
        ("warplink", "warplink", "", lambda: b.count("[data-role=links] tbody tr") == 50 and "10000 links" in (b.text("main .page-head") or "")),
    ]:
        begin = time.time()
        b.open(ui(t, project["id"], section, query))
        b.wait(ready, message=f"the {name} page with large state")
        timings[name] = (time.time() - begin, b.js("return performance.now()"))
        b.screenshot(f"large-{name}")
    for name, (wall, browser) in timings.items():
        print(f"    page open with 10,000 entries/links: {name}: {wall * 1000:.0f} ms until drawn ({browser:.0f} ms since navigation start in the browser)")
    b.open(ui(t, project["id"], "journal", "admin=show"))
    b.wait(lambda: b.count("[data-role=journal-rows] tr") >= 100, message="the first page")
    first = b.count("[data-role=journal-rows] tr")
    b.find("[data-role=load-older]").click()
    b.wait(lambda: b.count("[data-role=journal-rows] tr") >= first + 100, message="the next page after Load older")
    b.open(ui(t, project["id"], "warplink", "page=199"))
    b.wait(lambda: "bulk-9999" in (b.text("[data-role=links]") or ""), message="the last page of links")
