"""Shared pieces of the dashboard browser tests: a server process, a tiny HTTP client for the
control plane and the SDK routes, and a headless Chromium with waits and screenshots."""

import json
import os
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """An `understudy serve` on a free loopback port with a temporary database."""

    def __init__(self, binary, extra_args=(), env=None):
        self.port = free_port()
        self.directory = tempfile.mkdtemp(prefix="understudy-dashboard-")
        self.url = f"http://127.0.0.1:{self.port}"
        arguments = [binary, "serve", "--port", str(self.port), "--https-port", "0", "--proxy-port", "0", "--database", os.path.join(self.directory, "db.sqlite"), "--ca-dir", self.directory, "--no-request-log", *extra_args]
        self.log = open(os.path.join(self.directory, "server.log"), "w")
        self.process = subprocess.Popen(arguments, stdout=self.log, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})})
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/__admin/ready", timeout=2) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, OSError):
                time.sleep(0.2)
        raise RuntimeError(f"server on {self.url} did not become ready; see {self.log.name}")

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


class Response:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body

    def json(self):
        return json.loads(self.body) if self.body else None


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


OPENER = urllib.request.build_opener(NoRedirect)


def http(base, method, path, body=None, headers=None, raw=None):
    """One request; `body` is sent as JSON, `raw` as bytes. Never follows redirects, never raises on 4xx/5xx."""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    all_headers = dict(headers or {})
    if body is not None and raw is None:
        all_headers.setdefault("Content-Type", "application/json")
    request = urllib.request.Request(base + path, data=data, method=method, headers=all_headers)
    try:
        with OPENER.open(request, timeout=30) as response:
            return Response(response.status, dict(response.headers), response.read())
    except urllib.error.HTTPError as error:
        return Response(error.code, dict(error.headers), error.read())


class Admin:
    """The control plane of one server."""

    def __init__(self, base, token=None):
        self.base = base
        self.headers = {"X-Understudy-Admin-Token": token} if token else {}

    def call(self, method, path, body=None, expect=None):
        response = http(self.base, method, path, body, self.headers)
        if expect is not None and response.status != expect:
            raise AssertionError(f"{method} {path} answered {response.status}, expected {expect}: {response.body[:300]!r}")
        return response.json()

    def project(self, name):
        return self.call("POST", "/__admin/projects", {"name": name}, expect=201)


class Browser:
    """Headless Chromium driven by chromedriver, both from Debian's packages."""

    def __init__(self, artifacts, extra_arguments=()):
        options = webdriver.ChromeOptions()
        options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
        for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1440,1000", "--lang=en-GB",
                         *extra_arguments]:
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)
        self.artifacts = artifacts
        os.makedirs(artifacts, exist_ok=True)

    def open(self, url):
        self.driver.get(url)
        self.wait(lambda: self.js("return document.readyState") == "complete")

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def wait(self, condition, timeout=15, message="condition"):
        """Waits for `condition()` to be truthy (polling the DOM, not sleeping a fixed time)."""
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.05, ignored_exceptions=(Exception,)).until(lambda _: condition())
        except Exception as error:
            raise AssertionError(f"timed out waiting for {message}") from error

    def wait_page(self):
        """Waits until the page's heading is drawn and nothing says Loading…"""
        self.wait(lambda: self.js("const m = document.querySelector('main'); return !!(m && m.querySelector('h1') && !m.textContent.includes('Loading…'))"),
                  message="the page to render")

    def find(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def find_all(self, css):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def count(self, css):
        return self.js("return document.querySelectorAll(arguments[0]).length", css)

    def text(self, css):
        return self.js("const e = document.querySelector(arguments[0]); return e ? e.textContent : null", css)

    def fill(self, css, value):
        element = self.find(css)
        element.clear()
        element.send_keys(value)

    def select(self, css, value):
        self.js("const s = document.querySelector(arguments[0]); s.value = arguments[1]; s.dispatchEvent(new Event('change', {bubbles: true}));", css, value)

    def console_errors(self):
        return [entry for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"]

    def screenshot(self, name):
        """The whole page (up to 4000 px tall) as `<artifacts>/<name>.png`."""
        height = self.js("return Math.min(4000, document.documentElement.scrollHeight)")
        self.driver.set_window_size(1440, max(900, height))
        path = os.path.join(self.artifacts, f"{name}.png")
        self.driver.save_screenshot(path)
        self.driver.set_window_size(1440, 1000)
        return path

    def quit(self):
        self.driver.quit()
