"""Runs the dashboard's browser tests against a running Understudy and prints `N passed, N failed`.

    python Tests/dashboard/run.py --url http://127.0.0.1:PORT --binary .build/debug/understudy --artifacts DIR [--only NAME]

The binary is used to start extra servers some tests need (one with an admin token).
"""

import argparse
import os
import sys
import time
import traceback
from types import SimpleNamespace

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from harness import Admin, Browser  # noqa: E402
import tests_core  # noqa: E402
import tests_journal  # noqa: E402,F401  (registers its tests)
import tests_pages  # noqa: E402,F401  (registers its tests)
import tests_platforms  # noqa: E402,F401  (registers its tests)
import tests_origin  # noqa: E402,F401  (registers its tests)
import tests_unmatched  # noqa: E402,F401  (registers its tests)
import tests_checks  # noqa: E402,F401  (registers its tests)
import tests_devices  # noqa: E402,F401  (registers its tests)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--artifacts", required=True)
    parser.add_argument("--only", action="append", default=[])
    arguments = parser.parse_args()

    browser = Browser(arguments.artifacts)
    context = SimpleNamespace(server=SimpleNamespace(url=arguments.url), admin=Admin(arguments.url), browser=browser,
                              binary=arguments.binary, artifacts=arguments.artifacts)
    passed, failed = 0, 0
    try:
        for function in tests_core.TESTS:
            if arguments.only and not any(name in function.__name__ for name in arguments.only):
                continue
            started = time.time()
            try:
                function(context)
                passed += 1
                print(f"ok    {function.__name__} ({time.time() - started:.1f} s)", flush=True)
            except Exception:  # a failed assertion or a broken page: report and go on
                failed += 1
                print(f"FAIL  {function.__name__} ({time.time() - started:.1f} s)", flush=True)
                print("      " + traceback.format_exc().strip().replace("\n", "\n      "), flush=True)
                try:
                    print(f"      screenshot: {browser.screenshot('FAILED-' + function.__name__)}", flush=True)
                except Exception:
                    pass
    finally:
        browser.quit()
    print(f"screenshots: {arguments.artifacts}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
