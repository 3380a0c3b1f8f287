"""Browser tests of the journal's request tools: a long path beside its method, multipart bodies
taken apart, "Copy as cURL" (run and compared with what it replays) and "Download HAR"."""

import glob
import json
import os
import re
import subprocess
import tempfile
import time

from harness import Server, http
from tests_core import test, ui


def journal_entries(t, project, **filters):
    query = "&".join(f"{key}={value}" for key, value in filters.items())
    return t.admin.call("GET", f"/__admin/projects/{project['id']}/requests?{query}", expect=200)["requests"]


def line_boxes(b, css):
    """How many lines the text of each element matching `css` takes."""
    return b.js("return [...document.querySelectorAll(arguments[0])].filter(e => e.offsetParent)"
                ".map(e => { const r = document.createRange(); r.selectNodeContents(e); return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; })", css)


def open_entry(b, t, project, entry_id):
    b.open(ui(t, project["id"], "journal", f"entry={entry_id}"))
    b.wait(lambda: b.js("const d = document.querySelector('[data-role=entry-detail]'); return d && d.dataset.id === arguments[0]", str(entry_id)),
           message=f"the detail of entry #{entry_id}")


@test
def a_long_path_never_splits_the_method(t):
    b = t.browser
    project = t.admin.project("long-path")
    key = project["credentials"]["warplink"]["sdkKey"]
    long_path = "/warplink/v1/" + "segment" * 40 + "/" + "x" * 120
    http(t.server.url, "POST", long_path + "?q=1", raw=b"{}", headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
    entry = journal_entries(t, project, platform="warplink")[0]
    try:
        for width in (1440, 1000, 760):
            b.driver.set_window_size(width, 900)
            open_entry(b, t, project, entry["id"])
            row_method = line_boxes(b, "[data-role=journal-rows] tr:not(.cp-row) td.col-method")
            title_method = line_boxes(b, "[data-role=entry-detail] h2 .method")
            assert row_method == [1] and title_method == [1], f"at {width} px the method takes {row_method} (row) and {title_method} (detail) lines"
            assert line_boxes(b, "[data-role=entry-detail] h2 .path")[0] > 1, "the path wraps instead"
        cell = b.find(f"[data-role=journal-rows] tr[data-id='{entry['id']}'] td.col-path")
        assert cell.get_attribute("title") == long_path + "?q=1", cell.get_attribute("title")
        b.screenshot("journal-long-path")
        b.open(ui(t, project["id"]))
        b.wait(lambda: b.count("a[href*='journal?entry=']") == 1, message="the latest requests on the overview")
        assert line_boxes(b, "main table.data td.mono.nowrap") == [1]
    finally:
        b.driver.set_window_size(1440, 1000)


def multipart(boundary, parts):
    body = b""
    for headers, content in parts:
        body += f"--{boundary}\r\n".encode() + "".join(f"{name}: {value}\r\n" for name, value in headers).encode() + b"\r\n" + content + b"\r\n"
    return body + f"--{boundary}--\r\n".encode()


BINARY = bytes(range(256)) * 3 + b"\xff\xfe tail"


@test
def a_multipart_upload_shows_its_parts(t):
    b = t.browser
    project = t.admin.project("multipart")
    key = project["credentials"]["asleep"]["apiKey"]
    boundary = "----understudy-boundary-7"
    body = multipart(boundary, [
        ([("Content-Disposition", 'form-data; name="seq_num"')], b"0"),
        ([("Content-Disposition", 'form-data; name="file"; filename="chunk-0.bin"'), ("Content-Type", "application/octet-stream")], BINARY),
        ([("Content-Disposition", 'form-data; name="notes"; filename="notes.txt"'), ("Content-Type", "text/plain; charset=utf-8")], "naïve <b>note</b>\nline 2".encode()),
    ])
    http(t.server.url, "POST", "/asleep/ai/v1/sessions/no-such-session/upload", raw=body,
         headers={"x-api-key": key, "x-user-id": "nobody", "Content-Type": f"multipart/form-data; boundary={boundary}"})
    entry = journal_entries(t, project, platform="asleep")[0]
    assert entry["requestBody"].startswith("base64:"), "a binary part makes the journal keep the body as base64"
    open_entry(b, t, project, entry["id"])
    b.wait(lambda: b.count("[data-role=request-body-parts] [data-role=multipart-part]") == 3, message="three parts")
    parts = b.js("return [...document.querySelectorAll('[data-role=request-body-parts] [data-role=multipart-part]')].map(p => "
                 "({name: p.dataset.name, size: Number(p.dataset.size), head: p.querySelector('.part-head').textContent,"
                 " text: p.querySelector('[data-role=part-text]')?.textContent ?? null, binary: p.querySelector('[data-role=part-binary]')?.textContent ?? null}))")
    assert [p["name"] for p in parts] == ["seq_num", "file", "notes"], parts
    assert [p["size"] for p in parts] == [1, len(BINARY), len("naïve <b>note</b>\nline 2".encode())], parts
    assert parts[0]["text"] == "0"
    assert "chunk-0.bin" in parts[1]["head"] and "application/octet-stream" in parts[1]["head"] and parts[1]["text"] is None
    assert parts[1]["binary"].startswith("binary; first bytes: 00 01 02 03"), parts[1]
    assert "notes.txt" in parts[2]["head"] and "text/plain" in parts[2]["head"] and parts[2]["text"] == "naïve <b>note</b>\nline 2"
    assert b.count("[data-role=entry-detail] b") == 0, "part text is text, never markup"
    assert "multipart, 3 parts" in b.text("[data-role=entry-detail]")
    # The raw body is still there, folded.
    assert b.js("return document.querySelector('[data-role=request-body]').closest('details') !== null")
    b.screenshot("journal-multipart")


def run_curl(command):
    # Only the command's own --proxy: a proxy in the environment would take loopback requests elsewhere.
    environment = {name: value for name, value in os.environ.items() if "proxy" not in name.lower()}
    result = subprocess.run(["bash", "-c", command + " --silent --show-error --output /dev/null --write-out '%{http_code}'"],
                            capture_output=True, text=True, timeout=30, env=environment)
    assert result.returncode == 0, (result.returncode, result.stderr, command[:500])
    return int(result.stdout)


def curl_of(b, t, project, entry_id):
    open_entry(b, t, project, entry_id)
    command = b.text("[data-role=curl-command]")
    # The button copies exactly that text.
    t.browser.driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": t.server.url, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    b.find("[data-role=copy-curl] button").click()
    b.wait(lambda: b.text("[data-role=copy-curl] button") == "Copied", message="the copy button to say Copied")
    copied = b.driver.execute_async_script("navigator.clipboard.readText().then(arguments[0], (e) => arguments[0]('clipboard: ' + e))")
    assert copied == command, (copied[:200], command[:200])
    return command


@test
def copy_as_curl_replays_the_request(t):
    b = t.browser
    project = t.admin.project("curl")
    key = project["credentials"]["asleep"]["apiKey"]
    # A JSON body with a quote in it, and a secret header the journal redacts.
    sent = {"client_id": "it's-me", "nested": {"list": [1, 2]}}
    reply = http(t.server.url, "POST", "/asleep/ai/v1/users?source=curl-test", sent, {"x-api-key": key, "X-Custom": "a 'quoted' value"})
    assert reply.status == 201, reply.body
    original = journal_entries(t, project, platform="asleep")[0]
    command = curl_of(b, t, project, original["id"])
    assert command.startswith("# The journal redacted x-api-key"), command
    assert "-H 'x-api-key: [redacted …" in command and key not in command
    assert "content-length" not in command and "'host:" not in command
    assert f"'{t.server.url}/asleep/ai/v1/users?source=curl-test'" in command, command
    b.screenshot("journal-curl")
    filled = re.sub(r"\[redacted …[^\]]*\]", key, command)
    assert run_curl(filled) == 201
    replayed = journal_entries(t, project, platform="asleep")[0]
    assert replayed["id"] > original["id"]
    for field in ("method", "path", "query", "requestBody", "status"):
        assert replayed[field] == original[field], (field, replayed[field], original[field])
    assert replayed["requestHeaders"]["x-custom"] == "a 'quoted' value"
    assert replayed["requestHeaders"]["content-type"] == "application/json"

    # Through the proxy to the platform's real host: the URL the SDK used (the journal's routed
    # path has the platform prefix in front), with the proxy and the CA to trust.
    assert project.get("proxy", {}).get("address"), "the suite's server has a proxy"
    proxy, ca = project["proxy"]["address"], project["proxy"]["caCertificatePath"]
    status = run_curl(f"curl https://api.asleep.ai/ai/v1/users --proxy http://{proxy} --cacert {ca} -H 'x-api-key: {key}' "
                      "-H 'Content-Type: application/json' --data-binary '{}'")
    assert status == 201
    original = journal_entries(t, project, platform="asleep")[0]
    assert original["proxyHost"] == "api.asleep.ai" and original["path"] == "/asleep/ai/v1/users", original
    command = curl_of(b, t, project, original["id"])
    assert "curl 'https://api.asleep.ai/ai/v1/users'" in command and f"--proxy 'http://{proxy}'" in command and f"--cacert '{ca}'" in command, command
    assert run_curl(re.sub(r"\[redacted …[^\]]*\]", key, command)) == 201
    replayed = journal_entries(t, project, platform="asleep")[0]
    assert replayed["id"] > original["id"] and replayed["proxyHost"] == "api.asleep.ai" and replayed["path"] == original["path"]

    # A binary body: rebuilt from base64 and piped to curl, byte for byte.
    raw = BINARY + b"\r\n\x00end"
    http(t.server.url, "PUT", "/asleep/ai/v1/sessions/none/upload?seq_num=3", raw=raw,
         headers={"x-api-key": key, "x-user-id": "u", "Content-Type": "application/octet-stream"})
    original = journal_entries(t, project, platform="asleep")[0]
    assert original["requestBody"].startswith("base64:")
    command = curl_of(b, t, project, original["id"])
    assert "| base64 --decode | curl" in command and "--data-binary @-" in command and "-X PUT" in command, command
    run_curl(re.sub(r"\[redacted …[^\]]*\]", key, command))
    replayed = journal_entries(t, project, platform="asleep")[0]
    assert replayed["id"] > original["id"]
    for field in ("method", "path", "query", "requestBody", "requestBodySize", "status"):
        assert replayed[field] == original[field], (field, replayed[field], original[field])


def wait_for_file(pattern, timeout=15):
    deadline = time.time() + timeout
    while time.time() < deadline:
        done = [path for path in glob.glob(pattern) if not path.endswith(".crdownload")]
        if done:
            time.sleep(0.1)
            return done[0]
        time.sleep(0.1)
    raise AssertionError(f"no file {pattern} was downloaded")


def download_har(b, directory, project_id):
    for path in glob.glob(os.path.join(directory, "*")):
        os.remove(path)
    b.driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": directory})
    b.find("[data-role=download-har]").click()
    with open(wait_for_file(os.path.join(directory, f"{project_id}-requests*.har"))) as file:
        archive = json.load(file)
    assert archive["log"]["version"] == "1.2" and archive["log"]["creator"]["name"] == "Understudy"
    return archive["log"]["entries"]


@test
def download_har_takes_the_page_filters(t):
    b = t.browser
    project = t.admin.project("har")
    key = project["credentials"]["asleep"]["apiKey"]
    for name in ("one", "two"):
        assert http(t.server.url, "POST", "/asleep/ai/v1/users", {"client_id": name}, {"x-api-key": key}).status == 201
    assert http(t.server.url, "GET", "/asleep/ai/v1/users/nobody", headers={"x-api-key": key}).status == 404
    wl = project["credentials"]["warplink"]["sdkKey"]
    assert http(t.server.url, "GET", "/warplink/v1/sdk/validate", headers={"Authorization": f"Bearer {wl}"}).status == 200
    # A control-plane write (reads are not journalled): what "show control-plane calls" adds to the HAR.
    assert http(t.server.url, "POST", f"/__admin/projects/{project['id']}/snapshots", {"name": "har"}).status == 201
    directory = tempfile.mkdtemp(prefix="understudy-har-")

    b.open(ui(t, project["id"], "journal", "platform=asleep&status=2xx"))
    b.wait(lambda: b.count("[data-role=journal-rows] tr:not(.cp-row)") == 2, message="the filtered rows")
    entries = download_har(b, directory, project["id"])
    assert [(e["request"]["method"], e["request"]["url"], e["response"]["status"]) for e in entries] == [
        ("POST", f"{t.server.url}/asleep/ai/v1/users", 201)] * 2, entries
    assert json.loads(entries[0]["request"]["postData"]["text"]) == {"client_id": "one"}, "oldest first, bodies kept"

    # The filters changed on the page: every SDK request, still without the control plane's.
    b.select("[data-filter=platform]", "")
    b.select("[data-filter=status]", "")
    b.wait(lambda: b.count("[data-role=journal-rows] tr:not(.cp-row)") == 4, message="all four SDK rows")
    entries = download_har(b, directory, project["id"])
    assert sorted(e["_understudy"]["platform"] for e in entries) == ["asleep", "asleep", "asleep", "warplink"], entries
    b.find("[data-role=show-admin]").click()
    entries = download_har(b, directory, project["id"])
    assert any(e["_understudy"]["platform"] == "admin" for e in entries), "shown control-plane calls are kept"

    # Behind an admin token the download sends it, as every other call does.
    server = Server(t.binary, ["--admin-token", "har-token"])
    try:
        b.open(server.url + "/__admin/ui/projects/demo/journal")
        b.wait(lambda: b.count("dialog[data-role=token-dialog][open]") == 1, message="the token dialog")
        b.fill("dialog[data-role=token-dialog] input", "har-token")
        b.find("dialog[data-role=token-dialog] button[type=submit]").click()
        b.wait(lambda: b.text("[data-role=live-state]") == "● live", message="the journal behind the token")
        assert download_har(b, directory, "demo") is not None
    finally:
        server.stop()
        b.js("sessionStorage.clear()")
