"""Browser tests of the control plane against web pages it does not serve: a page of another
loopback port (no-cors fetches, CORS fetches and JS-free text/plain forms) and a page under a
name the browser resolves to 127.0.0.1 (DNS rebinding). Each compares the projects' state, read
through the real control plane, before and after."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from harness import Admin, Browser, Server, http
from tests_core import test

REBINDING_NAME = "attacker.test"


class OtherOrigin:
    """A tiny HTTP server on a free loopback port serving fixed pages: another origin, as far as
    the browser is concerned (same host, another port: same-site, cross-origin)."""

    def __init__(self, pages):
        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                body = pages.get(self.path.split("?")[0], "<!doctype html><title>other origin</title><p>nothing here</p>").encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *arguments):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def project_state(admin):
    """Everything a foreign page could change, read through the control plane: the project list
    with credentials, and per project its clock, faults, snapshots and WarpLink links and keys."""
    projects = admin.call("GET", "/__admin/projects", expect=200)["projects"]
    state = {"global faults": admin.call("GET", "/__admin/faults", expect=200),
             "projects": sorted((p["id"], p["name"], json.dumps(p["credentials"], sort_keys=True)) for p in projects)}
    for project in projects:
        base = f"/__admin/projects/{project['id']}"
        clock = admin.call("GET", base + "/clock", expect=200)
        state[project["id"]] = {
            "clock": (clock["mode"], clock.get("offsetSeconds"), clock.get("frozenAt")),
            "faults": admin.call("GET", base + "/faults", expect=200),
            "snapshots": admin.call("GET", base + "/snapshots", expect=200),
            "links": admin.call("GET", base + "/warplink/links", expect=200),
            "keys": admin.call("GET", base + "/warplink/keys", expect=200),
        }
    return state


def form_body(name, value):
    """What a browser sends for a text/plain form with one field."""
    return f"{name}={value}\r\n".encode()


def attacks(project, bundle):
    """The requests a foreign page makes: (label, method, path, fetch body, text/plain form field or None, status curl gets)."""
    base = f"/__admin/projects/{project}"
    fault = {"match": {"platform": "warplink"}, "action": {"type": "status", "status": 503}}
    return [
        ("global 503 fault", "POST", "/__admin/faults", json.dumps(fault),
         ('{"match":{"platform":"warplink"},"action":{"type":"status","status":503},"id":"flt_from', 'page"}'), 201),
        ("project 503 fault", "POST", base + "/faults", json.dumps(fault),
         ('{"match":{"platform":"warplink"},"action":{"type":"status","status":503},"id":"flt_from', 'page"}'), 201),
        ("clock ten years on", "POST", base + "/clock/advance", json.dumps({"seconds": 315360000}), None, 200),
        ("reset", "POST", base + "/reset", "", ("", ""), 200),
        ("import over the project", "POST", f"/__admin/projects/import?replace={project}", bundle, None, 201),
        ("new project", "POST", "/__admin/projects", json.dumps({"id": "planted", "name": "planted"}),
         ('{"id":"planted-form","name":"planted', 'x"}'), 201),
        ("WarpLink link to an attacker URL", "POST", base + "/warplink/links", json.dumps({"slug": "evil", "destination_url": "https://attacker.example/x"}),
         ('{"slug":"evil-form","destination_url":"https://attacker.example/', 'x"}'), 201),
        ("WarpLink key", "POST", base + "/warplink/keys", json.dumps({"name": "planted"}), ('{"name":"planted', 'x"}'), 201),
        ("clock twenty years on", "PUT", base + "/clock", json.dumps({"mode": "offset", "offsetSeconds": 631152000}), None, 200),
        ("delete the project", "DELETE", base, "", None, 204),
    ]


def prove_payloads_work(server, admin):
    """The same bodies sent as curl sends them (no Origin, no Sec-Fetch-Site), fetch bodies and form
    bodies alike, are accepted on a scratch project: the browser's attempts fail because of where
    they come from, not because of what they say."""
    scratch = admin.project("payload-control")["id"]
    decoy = admin.project("payload-decoy")["id"]
    bundle = http(server.url, "GET", f"/__admin/projects/{decoy}/export").body.decode()
    admin.call("DELETE", f"/__admin/projects/{decoy}", expect=204)  # its credentials are free for the import to take
    for label, method, path, body, form, expected in attacks(scratch, bundle):
        bodies = [body.replace("planted", "control-planted")]
        if form is not None and form[0]:
            bodies.append(form_body(form[0].replace("planted", "control-planted"), form[1]).decode())
        for sent_body in bodies:
            sent = http(server.url, method, path, raw=sent_body.encode(), headers={"Content-Type": "text/plain"})
            assert sent.status == expected, (label, sent_body[:80], sent.status, sent.body[:300])
    for path in ["/__admin/faults", "/__admin/projects/control-planted", "/__admin/projects/control-planted-form"]:
        http(server.url, "DELETE", path)


FETCH_ATTACK = """
const [target, attempts, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
(async () => {
  const results = [];
  for (const a of attempts) {
    try {
      const init = {method: a.method, mode: a.mode, credentials: "include"};
      if (a.body) init.body = a.body;
      if (a.mode === "cors" && a.body) init.headers = {"Content-Type": "application/json"};
      const response = await fetch(target + a.path, init);
      let text = "";
      try { text = await response.text(); } catch (e) {}
      results.push({label: a.label, mode: a.mode, sent: true, type: response.type, status: response.status, read: text});
    } catch (error) {
      results.push({label: a.label, mode: a.mode, sent: false, error: String(error), read: ""});
    }
  }
  done(results);
})();
"""


def forms_page(target, project):
    """Text/plain forms, one per attack with a form field, each posting into its own frame; no script."""
    parts = ["<!doctype html><title>forms</title>"]
    for index, (label, method, path, _, form, _) in enumerate(attacks(project, "")):
        if form is None:
            continue
        name, value = form[0].replace("'", "&#39;"), form[1].replace("'", "&#39;")
        field = f"<input type=hidden name='{name}' value='{value}'>" if name else ""
        parts.append(f"<iframe name=frame{index}></iframe><form id=form{index} enctype=text/plain method=post target=frame{index} "
                     f"action='{target}{path}'>{field}<button type=submit>{label}</button></form>")
    return "\n".join(parts)


def foreign_entries(admin, origins):
    """Journal entries of requests whose Origin is one of `origins` or whose Sec-Fetch-Site says another site."""
    entries = admin.call("GET", "/__admin/requests?limit=1000", expect=200)["requests"]
    return [e for e in entries
            if e["requestHeaders"].get("origin") in origins or e["requestHeaders"].get("sec-fetch-site") in ("same-site", "cross-site")]


def leaked(texts, secrets):
    """Bytes of what a page read that hold project data."""
    return sum(len(text) for text in texts if any(secret in text for secret in secrets))


@test
def another_origins_page_changes_and_reads_nothing(t):
    server = Server(t.binary)
    admin = Admin(server.url)
    other = None
    try:
        prove_payloads_work(server, admin)
        target_project = admin.project("target")
        project = target_project["id"]
        admin.call("PUT", f"/__admin/projects/{project}/clock", {"mode": "frozen", "now": "2030-01-01T00:00:00Z"}, expect=200)
        decoy = admin.project("decoy")
        bundle = http(server.url, "GET", f"/__admin/projects/{decoy['id']}/export").body.decode()
        admin.call("DELETE", f"/__admin/projects/{decoy['id']}", expect=204)
        secrets = [project, decoy["id"], *[v for c in target_project["credentials"].values() for v in c.values()]]
        before = project_state(admin)

        other = OtherOrigin({"/forms": forms_page(server.url, project)})
        b = t.browser
        b.open(other.url + "/")
        attempts = []
        for label, method, path, body, _, _ in attacks(project, bundle):
            # no-cors: what a page sends without any CORS answer (the browser refuses PUT and DELETE outright);
            # cors: a non-simple request goes only after a preflight the control plane does not allow.
            attempts.append({"label": label, "method": method, "path": path, "body": body, "mode": "no-cors"})
            if method != "POST":
                attempts.append({"label": label, "method": method, "path": path, "body": body, "mode": "cors"})
        for path in ["/__admin/projects", f"/__admin/projects/{project}", f"/__admin/projects/{project}/export", "/__admin/requests"]:
            attempts.append({"label": "read " + path, "method": "GET", "path": path, "body": "", "mode": "cors"})
            attempts.append({"label": "read " + path, "method": "GET", "path": path, "body": "", "mode": "no-cors"})
        results = b.driver.execute_async_script(FETCH_ATTACK, server.url, attempts)
        assert len(results) == len(attempts), results
        for result in results:
            # An opaque answer (no-cors) has status 0 and no readable body; a CORS fetch without an allowance throws.
            assert result["read"] == "", result
            assert not (result["mode"] == "cors" and result["sent"]), result

        b.open(other.url + "/forms")
        forms = b.js("return [...document.forms].map(form => form.action)")
        for button in b.find_all("form button"):
            button.click()
        # Each form's answer replaces its frame's document: wait until every frame shows the server's answer.
        def frame_url(index):
            b.driver.switch_to.frame(index)
            try:
                return b.js("return document.readyState === 'complete' ? location.href : ''")
            finally:
                b.driver.switch_to.default_content()
        b.wait(lambda: all(frame_url(index) == action for index, action in enumerate(forms)), message="every form's answer in its frame")
        after = project_state(admin)
        assert after == before, ("the projects' state changed", sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k)))
        reached = foreign_entries(admin, [other.url, "null"])
        # Every change is refused (403; a preflight 405); reads are answered, but without CORS the page sees nothing of them.
        changes = [entry for entry in reached if entry["method"] not in ("GET", "HEAD")]
        assert all(entry["status"] in (403, 405) for entry in changes), [(e["method"], e["path"], e["status"]) for e in changes]
        # Control-plane reads (GET) are not journalled; everything else that left the browser is there,
        # CORS preflights included. (A cors GET is a simple request: it leaves without a preflight.)
        journal_reads = sum(1 for a in attempts if a["method"] == "GET")
        left_browser = sum(1 for r in results if r["sent"]) + sum(1 for a in attempts if a["mode"] == "cors") + len(forms)
        assert len(reached) == left_browser - journal_reads, (len(reached), left_browser, journal_reads)
        read = leaked([r["read"] for r in results], secrets)
        assert read == 0
        print(f"      another origin: {len(attempts)} fetches and {len(forms)} forms; {len(reached)} requests reached the server, "
              f"{len(changes)} of them changes (all refused 403/405); 0 state changes, {read} bytes of project data read", flush=True)
    finally:
        if other:
            other.stop()
        server.stop()


REBOUND_ATTACK = """
const [project, done] = [arguments[0], arguments[arguments.length - 1]];
(async () => {
  const attempts = [
    {method: "GET", path: "/__admin/projects"},
    {method: "GET", path: "/__admin/projects/" + project},
    {method: "GET", path: "/__admin/projects/" + project + "/export"},
    {method: "GET", path: "/__admin/requests"},
    {method: "GET", path: "/__admin/projects/" + project + "/warplink/keys"},
    {method: "PUT", path: "/__admin/projects/" + project + "/clock", body: JSON.stringify({mode: "offset", offsetSeconds: 631152000})},
    {method: "POST", path: "/__admin/faults", body: JSON.stringify({match: {}, action: {type: "status", status: 503}})},
    {method: "POST", path: "/__admin/projects/" + project + "/reset"},
    {method: "DELETE", path: "/__admin/projects/" + project},
  ];
  const results = [];
  for (const a of attempts) {
    try {
      const init = {method: a.method};
      if (a.body) { init.body = a.body; init.headers = {"Content-Type": "application/json"}; }
      const response = await fetch(a.path, init);
      results.push({method: a.method, path: a.path, status: response.status, read: await response.text()});
    } catch (error) {
      results.push({method: a.method, path: a.path, status: -1, read: "", error: String(error)});
    }
  }
  done({origin: location.origin, results});
})();
"""


@test
def a_rebinding_name_reads_and_changes_nothing(t):
    server = Server(t.binary)
    admin = Admin(server.url)
    rebinding = None
    try:
        target_project = admin.project("rebinding-target")
        project = target_project["id"]
        admin.call("PUT", f"/__admin/projects/{project}/clock", {"mode": "frozen", "now": "2030-01-01T00:00:00Z"}, expect=200)
        secrets = [project, "demo0000", *[v for c in target_project["credentials"].values() for v in c.values()]]
        before = project_state(admin)
        # The browser, not the server, resolves the name: what a rebinding DNS answer makes it do.
        rebinding = Browser(t.artifacts, [f"--host-resolver-rules=MAP {REBINDING_NAME} 127.0.0.1"])
        page = f"http://{REBINDING_NAME}:{server.port}"
        rebinding.driver.get(page + "/__admin/ui")
        body = rebinding.js("return document.body ? document.body.innerText : ''")
        rebinding.screenshot("rebinding-refused")
        # The page now has the server's origin as far as the browser knows: every fetch is same-origin.
        outcome = rebinding.driver.execute_async_script(REBOUND_ATTACK, project)
        assert outcome["origin"] == page, outcome["origin"]
        results = outcome["results"]
        read = leaked([r["read"] for r in results], secrets)
        assert read == 0, ("project data read", read, [r["read"][:120] for r in results])
        after = project_state(admin)
        assert after == before, ("the projects' state changed", sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k)))
        assert all(result["status"] == 421 for result in results), [(r["method"], r["path"], r["status"]) for r in results]
        assert "--allowed-host attacker.test" in body, body
        print(f"      rebinding: 1 page load and {len(results)} same-origin fetches, all 421, 0 state changes, {read} bytes of project data read",
              flush=True)
    finally:
        if rebinding:
            rebinding.quit()
        server.stop()


@test
def the_dashboards_own_writes_carry_its_origin_and_pass(t):
    b = t.browser
    project = t.admin.project("own-origin")["id"]
    b.open(f"{t.server.url}/__admin/ui/projects/{project}/clock")
    b.wait_page()
    status = b.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch(arguments[0], {method: "PUT", headers: {"Content-Type": "application/json"}, body: JSON.stringify({mode: "frozen", now: "2031-01-01T00:00:00Z"})})
          .then(response => done(response.status), error => done(String(error)));
    """, f"/__admin/projects/{project}/clock")
    assert status == 200, status
    assert t.admin.call("GET", f"/__admin/projects/{project}/clock", expect=200)["frozenAt"].startswith("2031-01-01")
    puts = [e for e in t.admin.call("GET", f"/__admin/projects/{project}/requests?method=PUT", expect=200)["requests"]]
    assert puts and all(e["requestHeaders"].get("origin") == t.server.url and e["requestHeaders"].get("sec-fetch-site") == "same-origin"
                        for e in puts), [e["requestHeaders"] for e in puts]
