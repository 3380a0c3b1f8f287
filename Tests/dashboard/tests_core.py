"""Browser tests of the shell, projects, the live journal, faults, clock, snapshots, outbox,
untrusted text and the admin token."""

from harness import Server, http

TESTS = []


def test(function):
    TESTS.append(function)
    return function


def ui(t, project=None, section="", query=""):
    path = "/__admin/ui" + (f"/projects/{project}" if project else "") + (f"/{section}" if section else "")
    return t.server.url + path + (f"?{query}" if query else "")


def warplink_validate(t, project):
    key = project["credentials"]["warplink"]["sdkKey"]
    return http(t.server.url, "GET", "/warplink/v1/sdk/validate", headers={"Authorization": f"Bearer {key}"})


def asleep_user(t, project):
    return http(t.server.url, "POST", "/asleep/ai/v1/users", {}, {"x-api-key": project["credentials"]["asleep"]["apiKey"]})


@test
def shell_is_served_with_strict_headers_and_redirects(t):
    root = http(t.server.url, "GET", "/")
    assert root.status == 302 and root.headers["Location"] == "/__admin/ui", (root.status, root.headers)
    assert http(t.server.url, "GET", "/__admin").headers.get("Location") == "/__admin/ui"
    # `/` on a platform's real host belongs to the platform, not to the dashboard.
    assert http(t.server.url, "GET", "/", headers={"Host": "api.asleep.ai"}).status != 302
    for path in ["/__admin/ui", "/__admin/ui/projects/demo", "/__admin/ui/projects/demo/telematics"]:
        page = http(t.server.url, "GET", path)
        assert page.status == 200 and page.headers["Content-Type"].startswith("text/html"), (path, page.status)
        csp = page.headers["Content-Security-Policy"]
        assert "default-src 'self'" in csp and "script-src 'self'" in csp and "unsafe-inline" not in csp, csp
        assert b"<script" in page.body and b"<script>" not in page.body, "the shell has no inline script"
    assert http(t.server.url, "GET", "/__admin/ui/projects/demo/nonsense").status == 404
    script = http(t.server.url, "GET", "/__admin/ui/assets/app.js")
    assert script.status == 200 and script.headers["Content-Type"].startswith("text/javascript")
    etag = script.headers["ETag"]
    assert etag.startswith('"') and not etag.startswith('W/'), etag
    assert http(t.server.url, "GET", "/__admin/ui/assets/app.js", headers={"If-None-Match": etag}).status == 304
    assert http(t.server.url, "GET", "/__admin/ui/assets/style.css").headers["Content-Type"].startswith("text/css")
    assert http(t.server.url, "GET", "/__admin/ui/assets/missing.js").status == 404


@test
def create_a_project_and_read_its_settings(t):
    b = t.browser
    b.open(ui(t))
    b.wait_page()
    b.fill("form[data-role=create-project] input[name=name]", "browser-made")
    b.find("form[data-role=create-project] button[type=submit]").click()
    b.wait(lambda: "/__admin/ui/projects/" in b.driver.current_url and b.count("[data-platform]") == 4, message="the new project's page")
    b.wait_page()
    project_id = b.driver.current_url.rstrip("/").split("/")[-1]
    project = t.admin.call("GET", f"/__admin/projects/{project_id}", expect=200)
    assert project["name"] == "browser-made"
    card = b.text("[data-platform=warplink]")
    assert project["sdkSettings"]["warplink"]["apiKey"] in card and project["sdkSettings"]["warplink"]["apiEndpoint"] in card
    assert b.count("[data-platform] button.copy") >= 8, "every setting has a copy button"
    assert "Device setup" in b.text("[data-role=device-setup]")
    b.screenshot("project-overview")
    b.open(ui(t))
    b.wait(lambda: "browser-made" in (b.text("[data-role=project-list]") or ""), message="the project in the list")
    b.screenshot("projects")


@test
def live_journal_shows_new_requests_without_reload(t):
    b = t.browser
    project = t.admin.project("live-journal")
    b.open(ui(t, project["id"], "journal"))
    b.wait(lambda: b.text("[data-role=live-state]") == "● live", message="the live state")
    b.js("window.__sameDocument = 'yes'")
    assert warplink_validate(t, project).status == 200
    assert warplink_validate(t, project).status == 200
    assert asleep_user(t, project).status == 201
    b.wait(lambda: b.count("[data-role=journal-rows] tr .p-warplink") == 2 and b.count("[data-role=journal-rows] tr .p-asleep") == 1,
           message="three new rows in the live journal")
    assert b.js("return window.__sameDocument") == "yes", "the page was not reloaded"
    b.find("[data-role=journal-rows] tr:has(.p-asleep)").click()
    b.wait(lambda: b.count("[data-role=entry-detail]") == 1, message="the entry detail")
    body = b.text("[data-role=response-body]")
    assert '"user_id"' in body and '\n' in body, f"pretty-printed response body, got {body!r}"
    headers = b.text("[data-role=request-headers]")
    assert "x-api-key" in headers and "[redacted" in headers and project["credentials"]["asleep"]["apiKey"] not in headers
    assert "entry=" in b.driver.current_url
    b.driver.refresh()
    b.wait(lambda: b.count("[data-role=entry-detail]") == 1, message="the entry detail after a reload")
    b.screenshot("journal")


@test
def a_fault_rule_marks_the_next_request(t):
    b = t.browser
    project = t.admin.project("faults")
    b.open(ui(t, project["id"], "faults"))
    b.wait_page()
    b.select("form[data-role=fault-form] select[name=platform]", "warplink")
    b.fill("form[data-role=fault-form] input[name=path]", "/warplink/v1/sdk/validate")
    b.fill("form[data-role=fault-form] input[name=times]", "1")
    b.fill("form[data-role=fault-form] input[name=probability]", "2")
    b.find("form[data-role=fault-form] button[type=submit]").click()
    b.wait(lambda: "probability" in (b.text("[data-role=fault-message]") or ""), message="the client-side validation message")
    assert t.admin.call("GET", f"/__admin/projects/{project['id']}/faults")["rules"] == [], "an invalid rule is not sent"
    b.fill("form[data-role=fault-form] input[name=probability]", "1")
    b.find("form[data-role=fault-form] button[type=submit]").click()
    b.wait(lambda: b.count("[data-role=fault-rules] tr.fault-row") == 1, message="the new rule in the list")
    rule = t.admin.call("GET", f"/__admin/projects/{project['id']}/faults")["rules"][0]
    assert rule["action"] == {"type": "status", "status": 503} and rule["times"] == 1, rule
    assert warplink_validate(t, project).status == 503
    b.wait(lambda: b.text("[data-role=fault-rules] [data-role=hits]") == "1", message="the hit count to update live")
    b.screenshot("faults")
    assert warplink_validate(t, project).status == 200, "times: 1 means only the next request"
    b.open(ui(t, project["id"], "journal"))
    b.wait(lambda: b.count("[data-role=journal-rows] tr .p-warplink") == 2, message="both requests in the journal")
    faulted = b.find_all("[data-role=journal-rows] tr.has-fault")
    assert len(faulted) == 1 and rule["id"] in faulted[0].text, [row.text for row in faulted]
    faulted[0].click()
    b.wait(lambda: rule["id"] in (b.text("[data-role=entry-fault]") or ""), message="the fault in the entry detail")
    # A refusal by the server is shown as the server words it.
    doomed = t.admin.project("faults-refused")
    b.open(ui(t, doomed["id"], "faults"))
    b.wait_page()
    t.admin.call("DELETE", f"/__admin/projects/{doomed['id']}", expect=204)
    b.find("form[data-role=fault-form] button[type=submit]").click()
    b.wait(lambda: "refused" in (b.text("[data-role=fault-message]") or "") and doomed["id"] in b.text("[data-role=fault-message]"),
           message="the server's refusal")


@test
def clock_freezes_and_advances(t):
    b = t.browser
    project = t.admin.project("clock")
    b.open(ui(t, project["id"], "clock"))
    b.wait_page()
    b.find("[data-role=clock-freeze]").click()
    b.wait(lambda: "frozen" in (b.text("[data-role=clock-mode]") or ""), message="the frozen clock")
    frozen = t.admin.call("GET", f"/__admin/projects/{project['id']}/clock")
    assert frozen["mode"] == "frozen"
    shown = b.text("[data-role=clock-utc]")
    b.find("[data-role=clock-quick] button[data-seconds='3600']").click()
    b.wait(lambda: b.text("[data-role=clock-utc]") != shown, message="the clock face to move")
    after = t.admin.call("GET", f"/__admin/projects/{project['id']}/clock")
    from datetime import datetime
    parse = lambda text: datetime.fromisoformat(text.replace("Z", "+00:00"))
    assert abs((parse(after["now"]) - parse(frozen["now"])).total_seconds() - 3600) < 0.01, (frozen, after)
    assert b.text("[data-role=clock-utc]") == parse(after["now"]).strftime("%Y-%m-%d %H:%M:%S UTC")
    b.fill("[data-role=clock-advance] input[name=amount]", "-5")
    b.find("[data-role=clock-advance] button[type=submit]").click()
    b.wait(lambda: "positive" in (b.text("[data-role=clock-message]") or ""), message="the validation message")
    b.screenshot("clock")


@test
def snapshots_are_taken_and_restored(t):
    b = t.browser
    project = t.admin.project("snapshots")
    b.open(ui(t, project["id"], "snapshots"))
    b.wait_page()
    b.fill("form[data-role=snapshot-form] input[name=name]", "bad name!")
    b.find("form[data-role=snapshot-form] button[type=submit]").click()
    b.wait(lambda: "1–64" in (b.text("[data-role=snapshot-message]") or ""), message="the name check")
    b.fill("form[data-role=snapshot-form] input[name=name]", "before-change")
    b.find("form[data-role=snapshot-form] button[type=submit]").click()
    b.wait(lambda: "before-change" in (b.text("[data-role=snapshot-list]") or ""), message="the snapshot in the list")
    t.admin.call("PUT", f"/__admin/projects/{project['id']}/clock", {"mode": "frozen", "now": "2031-01-01T00:00:00Z"}, expect=200)
    restore = b.find("[data-role=snapshot-list] .row-actions button")
    restore.click()
    restore.click()
    b.wait(lambda: t.admin.call("GET", f"/__admin/projects/{project['id']}/clock")["mode"] == "real", message="the restored clock")
    b.screenshot("snapshots")


@test
def outbox_lists_side_effects(t):
    b = t.browser
    project = t.admin.project("outbox")
    base = f"/__admin/projects/{project['id']}/warrantylife"
    user = t.admin.call("POST", base + "/users", {"email": "outbox@example.com"}, expect=201)
    item = t.admin.call("POST", base + "/items", {"deviceId": "OUTBOX-DEVICE", "userId": user["userId"], "notificationToken": "fcm-outbox"}, expect=201)
    t.admin.call("POST", base + f"/items/{item['id']}/silent-push", expect=201)
    b.open(ui(t, project["id"], "outbox"))
    b.wait(lambda: "fcm-outbox" in (b.text("[data-role=outbox-list]") or ""), message="the push in the outbox")
    b.find("[data-role=outbox-list] tbody tr").click()
    b.wait(lambda: "content-available" in (b.text("[data-role=outbox-detail]") or ""), message="the push payload")
    b.screenshot("outbox")


MARKUP_BODY = '<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2">'
MARKUP_HEADER = '<b id="injected-bold">bold</b><img id="injected-img" src=x onerror="window.__xss = 3">'


@test
def untrusted_strings_are_shown_as_text(t):
    b = t.browser
    project = t.admin.project("xss")
    key = project["credentials"]["warplink"]["sdkKey"]
    reply = http(t.server.url, "POST", "/warplink/v1/attribution/match", raw=MARKUP_BODY.encode(),
                 headers={"Authorization": f"Bearer {key}", "Content-Type": "text/plain", "X-Evil": MARKUP_HEADER})
    assert reply.status == 400
    entry = t.admin.call("GET", f"/__admin/projects/{project['id']}/requests?platform=warplink")["requests"][0]
    b.open(ui(t, project["id"], "journal", f"entry={entry['id']}"))
    b.wait(lambda: b.count("[data-role=entry-detail]") == 1, message="the entry detail")
    assert b.text("[data-role=request-body]") == MARKUP_BODY, b.text("[data-role=request-body]")
    assert MARKUP_HEADER in b.text("[data-role=request-headers]")
    assert b.count("#injected-bold, #injected-img, main img, main script") == 0, "no element was made from the markup"
    assert b.count("script") == 1, "only the dashboard's own module script"
    assert b.js("return window.__xss === undefined"), "no injected script ran"
    visible = b.find("[data-role=request-body]")
    assert visible.is_displayed() and "<script>" in visible.text
    b.screenshot("journal-untrusted-text")


@test
def admin_token_is_asked_once_and_a_wrong_one_is_explained(t):
    server = Server(t.binary, ["--admin-token", "s3cret-dashboard-token"])
    b = t.browser
    try:
        b.open(server.url + "/__admin/ui")
        b.wait(lambda: b.count("dialog[data-role=token-dialog][open]") == 1, message="the token dialog")
        b.fill("dialog[data-role=token-dialog] input", "wrong-token")
        b.find("dialog[data-role=token-dialog] button[type=submit]").click()
        b.wait(lambda: b.count("[data-role=token-refused]") == 1, message="the refused-token message")
        b.screenshot("admin-token-refused")
        b.fill("dialog[data-role=token-dialog] input", "s3cret-dashboard-token")
        b.find("dialog[data-role=token-dialog] button[type=submit]").click()
        b.wait(lambda: "Demo" in (b.text("[data-role=project-list]") or ""), message="the projects behind the token")
        assert b.js("return sessionStorage.getItem('understudy.adminToken')") == "s3cret-dashboard-token"
        b.open(server.url + "/__admin/ui/projects/demo/clock")
        b.wait_page()
        assert b.count("dialog[data-role=token-dialog]") == 0, "asked once per tab"
        assert http(server.url, "GET", "/__admin/projects").status == 401
    finally:
        server.stop()
