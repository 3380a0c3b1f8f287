"""Browser tests of the Devices page: a project's app installations, one device's requests with
links into the journal, and Forget (with its confirmation) making the next registration a first one."""

from harness import http
from tests_core import test, ui

DEVICE = "SERIAL:SN-DASH-1"


def register(t, project):
    """An Asleep first launch: the product registration, then the user with its product key."""
    key = project["credentials"]["asleep"]["apiKey"]
    headers = {"x-api-key": key, "User-Agent": "AsleepSDK/3.3.0"}
    body = {"model": "bedside-1", "identifier_type": "SERIAL", "identifier_value": "SN-DASH-1"}
    registered = http(t.server.url, "POST", "/asleep/ai/v1/products", body, headers)
    assert registered.status in (200, 201), registered.body
    product_key = registered.json()["result"]["product_key"]
    assert http(t.server.url, "POST", "/asleep/ai/v1/users", {}, dict(headers, **{"x-product-key": product_key})).status == 201
    return registered.status


@test
def devices_page_lists_a_timeline_and_forgets_a_device(t):
    b = t.browser
    b.console_errors()  # drop what earlier tests logged
    project = t.admin.project("devices-page")
    pid = project["id"]
    assert register(t, project) == 201
    b.open(ui(t, pid, "devices"))
    b.wait(lambda: b.count("[data-role=device-name]") == 1, message="the registered product listed")
    assert b.text("main h1") == "Devices"
    assert b.text("[data-role=device-name]") == DEVICE
    assert b.js("return document.querySelector('.sidebar a[aria-current=page]').textContent") == "Devices"

    b.js("document.querySelector('[data-role=device-name]').closest('tr').click()")
    b.wait(lambda: b.count("[data-role=device-timeline] tbody tr") == 2, message="the device's two requests")
    timeline = b.text("[data-role=device-timeline]")
    assert timeline.index("/asleep/ai/v1/products") < timeline.index("/asleep/ai/v1/users"), timeline
    assert "platform=asleep" in b.driver.current_url and "SN-DASH-1" in b.driver.current_url
    b.screenshot("devices")

    # Forget asks for a second click, then the next registration is a first one.
    forget = b.find("[data-role=forget-device]")
    forget.click()
    assert "again" in forget.text, forget.text
    forget.click()
    b.wait(lambda: "Forgot" in b.text("#toasts"), message="the forget's confirmation")
    assert register(t, project) == 201

    # Each timeline entry links to its journal entry.
    b.driver.refresh()
    b.wait(lambda: b.count("[data-role=device-timeline] tbody tr") == 4, message="the timeline after a reload")
    b.js("document.querySelector('[data-role=device-timeline] tbody a').click()")
    b.wait(lambda: "/journal?entry=" in b.driver.current_url and b.text("main h1") == "Journal", message="the journal entry")
    errors = b.console_errors()
    assert not errors, errors
