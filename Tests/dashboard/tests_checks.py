"""Browser tests of the integration checks: the Checks page (findings made by real request
sequences, explained and linked to their requests; the rules' toggles and severities), the
journal's badges on the entries that raised a finding, and the sidebar's count."""

from harness import http
from tests_core import test, ui

FINDINGS = "[data-role=findings] [data-role=finding]"


def register(t, project, model, serial):
    """One Asleep product registration, as the SDK sends it."""
    return http(t.server.url, "POST", "/asleep/ai/v1/products", {"model": model, "identifier_type": "SERIAL", "identifier_value": serial},
                {"x-api-key": project["credentials"]["asleep"]["apiKey"], "User-Agent": "AsleepSDK/3.3.0"})


def findings(t, project):
    return t.admin.call("GET", f"/__admin/projects/{project['id']}/findings", expect=200)["findings"]


def rule_state(t, project, rule):
    return next(r for r in t.admin.call("GET", f"/__admin/projects/{project['id']}/checks", expect=200)["rules"] if r["id"] == rule)


@test
def checks_page_explains_findings_links_their_requests_and_sets_rules(t):
    b = t.browser
    b.console_errors()  # drop what earlier tests logged
    project = t.admin.project("checks-page")
    pid = project["id"]

    # The journal is open while the app misbehaves: the offending entries get their badge live.
    b.open(ui(t, pid, "journal"))
    b.wait(lambda: b.text("[data-role=live-state]") == "● live", message="the live journal")
    b.js("window.__sameDocument = 'yes'")
    assert register(t, project, "bedside-1", "SN-0001").status in (200, 201)
    assert register(t, project, "bedside-1", "SN-0001").status in (200, 201)  # registered again within a minute: a warning
    for _ in range(2):  # a rejected registration sent again unchanged: an error
        assert register(t, project, "", "SN-0003").status == 422
    found = {finding["rule"]: finding for finding in findings(t, project)}
    assert set(found) == {"asleep.setup-repeated", "asleep.setup-retried-after-rejection"}, found
    repeated, rejected = found["asleep.setup-repeated"], found["asleep.setup-retried-after-rejection"]
    assert len(repeated["requests"]) == 2 and rejected["severity"] == "error"
    for rule, finding in found.items():
        for entry in finding["requests"]:
            b.wait(lambda: b.count(f"[data-role=journal-rows] tr[data-id='{entry}'] [data-role=finding-badge][data-rule='{rule}']") == 1,
                   message=f"the {rule} badge on entry #{entry}")
    assert b.js("return window.__sameDocument") == "yes", "the journal was not reloaded"
    first = repeated["requests"][0]
    marked = b.js("return [...document.querySelectorAll('[data-role=journal-rows] tr:has([data-role=finding-badge])')].map((tr) => Number(tr.dataset.id))")
    assert set(marked) == {entry for finding in found.values() for entry in finding["requests"]}, ("only the entries the findings name carry a badge", marked)
    assert "sev-warning" in b.js(f"return document.querySelector(\"tr[data-id='{first}'] [data-role=finding-badge]\").className")
    count = b.text("#sidebar [data-role=checks-count]")
    assert count == "2" and "sev-error" in b.js("return document.querySelector('#sidebar [data-role=checks-count]').className"), count
    b.screenshot("journal-finding-badges")

    # The sidebar's Checks: errors first, each finding explained.
    b.js("document.querySelector('#sidebar a[href$=\"/checks\"]').click()")
    b.wait(lambda: b.count(FINDINGS) == 2, message="two findings on the Checks page")
    assert b.text("main h1") == "Checks"
    assert b.js("return document.querySelector(arguments[0]).dataset.rule", FINDINGS) == "asleep.setup-retried-after-rejection", "errors come first"
    card = b.text("[data-role=findings-warning] [data-rule='asleep.setup-repeated']")
    for text in [repeated["title"], repeated["whatTheAppDid"], repeated["ruleText"], "SERIAL:SN-0001", "docs/checks.md#asleepsetup-repeated", "once"]:
        assert text in card, (text, card)
    assert "1 error, 1 warning" in b.text("[data-role=findings-summary]")
    b.screenshot("checks")

    # An evidence link opens that entry in the journal, with the finding named in its detail.
    b.find(f"[data-rule='asleep.setup-repeated'] a[data-role=evidence][data-id='{first}']").click()
    b.wait(lambda: b.driver.current_url.endswith(f"/journal?entry={first}") and b.js("const d = document.querySelector('[data-role=entry-detail]'); return d ? d.dataset.id : null") == str(first),
           message="the journal entry the evidence names")
    b.wait(lambda: "asleep.setup-repeated" in (b.text("[data-role=entry-findings]") or ""), message="the finding in the entry's detail")
    # Its badge leads back to the Checks page.
    b.find(f"tr[data-id='{first}'] [data-role=finding-badge]").click()
    b.wait(lambda: "/checks" in b.driver.current_url and b.count(FINDINGS) == 2, message="the Checks page from the badge")

    # A severity raised to error regroups the finding and is stored; a rule turned off stays off.
    b.select("[data-role=rules] tr[data-rule='asleep.setup-repeated'] [data-role=rule-severity]", "error")
    b.wait(lambda: b.count("[data-role=findings-error] [data-rule='asleep.setup-repeated']") == 1, message="the finding among the errors")
    assert rule_state(t, project, "asleep.setup-repeated")["severity"] == "error"
    b.find("[data-role=rules] tr[data-rule='repeat-after-4xx'] [data-role=rule-enabled]").click()
    b.wait(lambda: not rule_state(t, project, "repeat-after-4xx")["enabled"], message="the rule turned off on the server")
    settings = t.admin.call("GET", f"/__admin/projects/{pid}/checks", expect=200)["settings"]
    assert settings == {"rules": {"asleep.setup-repeated": {"severity": "error"}, "repeat-after-4xx": {"enabled": False}}}, settings
    b.driver.refresh()
    b.wait(lambda: b.count("[data-role=rules] tr[data-rule='repeat-after-4xx']") == 1, message="the rules after a reload")
    assert not b.js("return document.querySelector(\"tr[data-rule='repeat-after-4xx'] [data-role=rule-enabled]\").checked")
    assert b.js("return document.querySelector(\"tr[data-rule='asleep.setup-repeated'] [data-role=rule-severity]\").value") == "error"
    # Back to the default: the override goes (null in the merge patch).
    b.select("[data-role=rules] tr[data-rule='asleep.setup-repeated'] [data-role=rule-severity]", "warning")
    b.wait(lambda: rule_state(t, project, "asleep.setup-repeated")["severity"] == "warning", message="the default severity again")
    assert t.admin.call("GET", f"/__admin/projects/{pid}/checks", expect=200)["settings"] == {"rules": {"repeat-after-4xx": {"enabled": False}}}

    # Clear findings (two clicks): the page, the sidebar count and the server agree.
    clear = "//button[normalize-space()='Clear findings']"
    b.driver.find_element("xpath", clear).click()
    b.driver.find_element("xpath", "//button[normalize-space()='Click again to clear']").click()
    b.wait(lambda: b.count(FINDINGS) == 0 and "No findings" in b.text("[data-role=findings]"), message="no findings shown")
    assert findings(t, project) == []
    assert b.count("#sidebar [data-role=checks-count]") == 0
    errors = b.console_errors()
    assert not errors, errors
