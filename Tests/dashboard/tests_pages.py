"""Browser tests of page details a new user tripped over: the outbox detail opening out of sight,
the overview's nested settings, and minting Telematics tokens from the page."""

from harness import http
from tests_core import test, ui


def in_view(b, css):
    """Whether the top of the element is inside the window, below the sticky top bar."""
    return b.js("const e = document.querySelector(arguments[0]); if (!e) return false; const r = e.getBoundingClientRect();"
                " const bar = document.querySelector('.topbar').getBoundingClientRect().bottom;"
                " return r.top >= bar - 1 && r.top < innerHeight - 40", css)


@test
def the_outbox_detail_opens_in_view(t):
    b = t.browser
    project = t.admin.project("outbox-long")
    base = f"/__admin/projects/{project['id']}/warrantylife"
    user = t.admin.call("POST", base + "/users", {"email": "long-outbox@example.com"}, expect=201)
    item = t.admin.call("POST", base + "/items", {"deviceId": "LONG-OUTBOX", "userId": user["userId"], "notificationToken": "fcm-long"}, expect=201)
    for _ in range(40):
        t.admin.call("POST", base + f"/items/{item['id']}/silent-push", expect=201)
    b.open(ui(t, project["id"], "outbox"))
    b.wait(lambda: b.count("[data-role=outbox-list] tbody tr") == 40, message="forty pushes in the outbox")
    assert b.js("return document.documentElement.scrollHeight > innerHeight * 1.5"), "the list is longer than the window"
    b.find("[data-role=outbox-list] tbody tr").click()
    b.wait(lambda: "content-available" in (b.text("[data-role=outbox-detail]") or ""), message="the push payload")
    b.wait(lambda: in_view(b, "[data-role=outbox-detail]"), message="the detail scrolled into view")
    b.screenshot("outbox-detail-in-view")
    # Closing and picking the last row brings it back too; a reload with ?message= does as well.
    b.find("[data-role=outbox-detail] .card-head button").click()
    b.wait(lambda: b.count("[data-role=outbox-detail]") == 0, message="the detail to close")
    assert "message=" not in b.driver.current_url
    b.js("window.scrollTo(0, 0)")
    rows = b.find_all("[data-role=outbox-list] tbody tr")
    b.js("arguments[0].scrollIntoView({block: 'center'})", rows[-1])
    rows[-1].click()
    b.wait(lambda: b.count("[data-role=outbox-detail]") == 1 and in_view(b, "[data-role=outbox-detail]"), message="the last row's detail in view")
    b.driver.refresh()
    b.wait(lambda: b.count("[data-role=outbox-detail]") == 1 and in_view(b, "[data-role=outbox-detail]"), message="the linked detail in view")


@test
def the_overview_shows_nested_settings_as_rows(t):
    b = t.browser
    project = t.admin.project("overview-rows")
    assert isinstance(project.get("httpsBaseURLs"), dict) and isinstance(project.get("connections"), dict), "this server reports them"
    b.open(ui(t, project["id"]))
    b.wait(lambda: b.count("[data-role=device-setup] h3") >= 2, message="the device-setup fields")
    setup = b.text("[data-role=device-setup]")
    assert '{"' not in setup and '":' not in setup and '["' not in setup, f"no JSON text: {setup[:300]!r}"
    for platform, url in project["httpsBaseURLs"].items():
        row = b.text(f"[data-field=httpsBaseURLs] tr[data-key={platform}]")
        assert row and url in row, (platform, row)
        card = b.text(f"[data-platform={platform}]")
        assert url in card, f"the {platform} card shows its HTTPS base URL"
    for platform, connection in project["connections"].items():
        for host in connection.get("realHosts", []):
            hosts = b.js("return [...document.querySelectorAll(arguments[0])].map(li => li.firstElementChild.firstElementChild.textContent)",
                         f"[data-field=connections] tr[data-key={platform}] tr[data-key=realHosts] li")
            assert host in hosts, (platform, hosts)
    links = b.js("return [...document.querySelectorAll('[data-role=device-setup] a[download]')].map(a => a.getAttribute('href'))")
    assert links and all(link.startswith("http") and link.endswith("/__admin/ca.pem") for link in links), links
    assert b.count("[data-field=httpsBaseURLs] button.copy") == len(project["httpsBaseURLs"])
    b.screenshot("project-overview-device-setup")


@test
def telematics_tokens_are_minted_from_the_page(t):
    b = t.browser
    project = t.admin.project("mint")
    b.open(ui(t, project["id"], "telematics"))
    b.wait_page()
    b.fill("form[data-role=mint-form] input[name=userId]", "12x")
    b.find("form[data-role=mint-form] button[type=submit]").click()
    b.wait(lambda: "positive whole number" in (b.text("[data-role=mint-message]") or ""), message="the user-id check")
    b.fill("form[data-role=mint-form] input[name=userId]", "4242")
    b.fill("form[data-role=mint-form] input[name=userName]", "Rui Costa")
    b.fill("form[data-role=mint-form] input[name=accessTtlSeconds]", "900")
    b.find("form[data-role=mint-form] button[type=submit]").click()
    b.wait(lambda: b.count("[data-role=mint-result] table.kv tr") == 4, message="the minted pair")
    shown = dict(b.js("return [...document.querySelectorAll('[data-role=mint-result] table.kv tr')].map(tr => [tr.querySelector('th').textContent, tr.querySelector('td').textContent])"))
    assert shown["token"].startswith("tma_") and shown["refreshToken"].startswith("tmr_"), shown
    assert b.count("[data-role=mint-result] table.kv button.copy") == 4, "each value has a copy button"
    listed = t.admin.call("GET", f"/__admin/projects/{project['id']}/telematics/tokens?userId=4242", expect=200)["tokens"]
    assert [pair["token"] for pair in listed] == [shown["token"]], listed
    me = http(t.server.url, "GET", "/telematics/api/v1/users/me", headers={"Authorization": f"Bearer {shown['token']}"})
    assert me.status == 200 and me.json()["userId"] == 4242 and me.json()["userName"] == "Rui Costa", (me.status, me.body)
    b.wait(lambda: "Rui Costa" in (b.text("[data-role=telematics-users]") or ""), message="the new user in the list")
    b.screenshot("telematics-tokens")
    # The server's own refusal is shown as it words it.
    b.fill("form[data-role=mint-form] input[name=accessTtlSeconds]", "99999999999")
    b.find("form[data-role=mint-form] button[type=submit]").click()
    b.wait(lambda: "lifetimes" in (b.text("[data-role=mint-message]") or "").lower(), message="the server's refusal")
