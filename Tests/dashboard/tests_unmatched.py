"""Browser tests of the Unmatched page: requests that matched no project, with their reason and
what to change, reached from the top bar and updated live."""

from harness import http
from tests_core import test, ui, warplink_validate

ROWS = "[data-role=unmatched-rows] tr[data-reason]"


def row_text(b, probe):
    """The text of the row whose query carries `probe`, or None."""
    return b.js("""
        const row = [...document.querySelectorAll(arguments[0])].find((tr) => tr.textContent.includes(arguments[1]));
        return row ? row.textContent : null;""", ROWS, probe)


def cell(b, probe, role):
    return b.js("""
        const row = [...document.querySelectorAll(arguments[0])].find((tr) => tr.textContent.includes(arguments[1]));
        const cell = row && row.querySelector(`[data-role=${arguments[2]}]`);
        return cell ? cell.textContent : null;""", ROWS, probe, role)


@test
def unmatched_page_shows_each_reason_with_its_fix_live(t):
    b = t.browser
    b.console_errors()  # drop what earlier tests logged
    project = t.admin.project("unmatched-page")
    b.open(ui(t))
    b.wait_page()
    b.find("#topnav a[data-nav=unmatched]").click()
    b.wait(lambda: b.driver.current_url.endswith("/__admin/ui/unmatched") and b.text("[data-role=live-state]") == "● live",
           message="the Unmatched page, live")
    assert b.js("return document.querySelector('#topnav a[data-nav=unmatched]').getAttribute('aria-current')") == "page"
    assert b.text("main h1") == "Unmatched requests"
    b.js("window.__sameDocument = 'yes'")
    before = b.count(ROWS)

    secret = "wl_test_nobodys00000000000000000c0de"
    assert http(t.server.url, "GET", "/warplink/v1/sdk/validate?probe=no-key").status == 401
    assert http(t.server.url, "GET", "/warplink/v1/sdk/validate?probe=wrong-key", headers={"Authorization": f"Bearer {secret}"}).status == 401
    assert http(t.server.url, "GET", "/warplnk/v1/sdk/validate?probe=typo").status == 404
    http(t.server.url, "GET", "/warrantylife/api/v1/items?probe=user-only", headers={"Authorization": "Bearer user-token"})
    http(t.server.url, "GET", "/warplink/r/nobodys-link?probe=short-link")
    assert warplink_validate(t, project).status == 200  # matched: never listed
    b.wait(lambda: b.count(ROWS) == before + 5, message="five new rows without a reload")
    assert b.js("return window.__sameDocument") == "yes", "the page was not reloaded"

    no_key = cell(b, "probe=no-key", "reason")
    assert "No credential" in no_key, no_key
    assert "Authorization: Bearer" in cell(b, "probe=no-key", "hint")
    wrong = cell(b, "probe=wrong-key", "reason")
    assert "Unknown credential" in wrong and "Authorization [redacted …c0de]" in wrong, wrong
    hint = cell(b, "probe=wrong-key", "hint")
    assert "is not any project's key" in hint and "copy the SDK settings from the project page" in hint, hint
    assert "No platform for the path" in cell(b, "probe=typo", "reason")
    assert "Did you mean /warplink?" in cell(b, "probe=typo", "hint")
    assert "X-WL-Developer-Key" in cell(b, "probe=user-only", "hint")
    assert "No project owns this short link" in cell(b, "probe=short-link", "hint")
    assert secret not in b.text("main"), "the key is shown redacted only"
    assert project["credentials"]["warplink"]["sdkKey"] not in b.text("main"), "a matched request is not listed"
    summary = b.text("[data-role=unmatched-summary]")
    assert "unknown credential" in summary and "no platform for the path" in summary, summary

    # A click shows the request's headers, redacted as in the journal.
    b.js("""[...document.querySelectorAll(arguments[0])].find((tr) => tr.textContent.includes('probe=wrong-key')).click()""", ROWS)
    b.wait(lambda: b.count("[data-role=unmatched-detail]") == 1, message="the request's detail")
    detail = b.text("[data-role=unmatched-detail]")
    assert "[redacted …c0de]" in detail and secret not in detail, detail
    b.screenshot("unmatched")

    # The rows are there after a reload too, and the hint's link leads to the projects.
    b.driver.refresh()
    b.wait(lambda: row_text(b, "probe=typo") is not None, message="the rows after a reload")
    b.js("""[...document.querySelectorAll(arguments[0])].find((tr) => tr.textContent.includes('probe=wrong-key'))
            .querySelector('[data-role=hint] a').click()""", ROWS)
    b.wait(lambda: b.driver.current_url.rstrip("/").endswith("/__admin/ui") and b.text("main h1") == "Projects", message="the projects page")
    assert b.js("return document.querySelector('#topnav a[data-nav=projects]').getAttribute('aria-current')") == "page"
    errors = b.console_errors()
    assert not errors, errors
