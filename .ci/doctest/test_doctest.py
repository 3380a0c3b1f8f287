#!/usr/bin/env python3
"""Tests of the doc-test itself: the extractor finds every shell block of a page, in order, with its
marker, and nothing else; the real pages have the blocks a line search finds; and the runner
passes, fails, skips and times out blocks as its markers say (these start the debug server in a
network namespace, as the doc-test does, and are skipped without the debug build).

Usage: python3 .ci/doctest/test_doctest.py
"""
import glob
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

from extract import ExtractError, console_commands, extract, naive_count  # noqa: E402

PAGE = textwrap.dedent(
    """\
    # A page

    ```sh
    echo one
    ```

    ```swift
    let notShell = 1
    ```

    <!-- doctest: skip (needs a device) -->
    ```bash
    adb devices
    ```

    1. In a list:

       <!-- doctest: fails (the 503 it asks for) -->
       ```sh
       curl -H 'X-Understudy-Fault: status=503' localhost:8080/warplink/v1/sdk/validate
         # indented more
       ```

    ````markdown
    ```sh
    not a block of this page, but text inside another block
    ```
    ````

    ~~~console
    $ understudy projects list
    ID    NAME
    demo  Demo
    $ curl -s localhost:8080/__admin/health \\
        -o /dev/null
    ~~~

    <!-- doctest: serve -->

    ```shell
    swift run understudy
    ```

    <!-- doctest: no-server -->
    ```sh
    understudy ca reset
    ```

    ``` sh
    echo last
    ```
    """
)


class ExtractTests(unittest.TestCase):
    def test_every_shell_block_in_order_with_its_line_language_and_kind(self):
        blocks = extract("page.md", PAGE)
        self.assertEqual(
            [(b.line, b.language, b.kind) for b in blocks],
            [(3, "sh", "run"), (12, "bash", "skip"), (19, "sh", "fails"), (30, "console", "run"),
             (40, "shell", "serve"), (45, "sh", "no-server"), (49, "sh", "run")],
        )
        self.assertEqual(blocks[0].text, "echo one\n")
        self.assertEqual(blocks[1].reason, "needs a device")
        self.assertEqual(blocks[2].reason, "the 503 it asks for")
        self.assertEqual(blocks[-1].text, "echo last\n")
        self.assertEqual(blocks[0].where(), "page.md:3")

    def test_a_block_in_a_list_loses_the_fence_indentation_only(self):
        block = extract("page.md", PAGE)[2]
        self.assertEqual(block.text, "curl -H 'X-Understudy-Fault: status=503' localhost:8080/warplink/v1/sdk/validate\n  # indented more\n")

    def test_a_console_block_runs_its_commands_not_its_output(self):
        block = extract("page.md", PAGE)[3]
        self.assertEqual(block.text, "understudy projects list\ncurl -s localhost:8080/__admin/health \\\n    -o /dev/null\n")
        self.assertEqual(console_commands(["$ a", "out $ b", "$", "$ c \\", "  d", "e"]), ["a", "", "c \\", "  d"])

    def test_text_inside_a_longer_fence_is_not_a_block(self):
        self.assertNotIn("not a block", "".join(b.text for b in extract("page.md", PAGE)))

    def test_the_line_search_agrees_on_plain_pages_only(self):
        # The runner compares the two counts, so a page whose fences fool one reading fails the
        # step instead of running fewer blocks: here the fence inside the four-backtick block.
        self.assertEqual(naive_count(PAGE), len(extract("page.md", PAGE)) + 1)
        plain = PAGE.replace("````markdown\n```sh\nnot a block", "````markdown\nnot a block").replace("```\n````", "````")
        self.assertEqual(naive_count(plain), len(extract("page.md", plain)))
        self.assertEqual(naive_count("```sh\n```\n\n  ~~~ console\n~~~\n```shx\n```\n"), 2)

    def test_markers_the_runner_cannot_follow_are_errors(self):
        cases = {
            "<!-- doctest: skipp (typo) -->\n```sh\ntrue\n```\n": "unknown doc-test marker",
            "<!-- doctest: skip -->\n```sh\ntrue\n```\n": "says why",
            "<!-- doctest: findings -->\n```sh\ntrue\n```\n": "says why",
            "<!-- doctest: run -->\n```sh\ntrue\n```\n": "unknown doc-test marker",
            "<!-- doctest: skip (x) -->\nSome text.\n\n```sh\ntrue\n```\n": "right before its shell block",
            "<!-- doctest: skip (x) -->\n```swift\nlet a = 1\n```\n": "before a swift block",
            "<!-- doctest: skip (x) -->\n<!-- doctest: serve -->\n```sh\ntrue\n```\n": "no shell block after it",
            "```sh\ntrue\n```\n<!-- doctest: serve -->\n": "no shell block after it",
            "<!-- DocTest: serve -->\n```sh\ntrue\n```\n": "unknown doc-test marker",
        }
        for text, message in cases.items():
            with self.subTest(text=text):
                with self.assertRaises(ExtractError) as caught:
                    extract("page.md", text)
                self.assertIn(message, str(caught.exception))
                self.assertIn("page.md:", str(caught.exception))

    def test_other_comments_are_not_markers(self):
        text = "<!-- a note -->\n```sh\ntrue\n```\n\nProse quoting `<!-- doctest: skipp -->` is no marker.\n"
        self.assertEqual([b.kind for b in extract("page.md", text)], ["run"])

    def test_the_pages_have_the_blocks_a_line_search_finds(self):
        pages = ["README.md"] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
        runnable = 0
        for page in pages:
            with open(os.path.join(ROOT, page)) as f:
                text = f.read()
            blocks = extract(page, text)
            with self.subTest(page=page):
                self.assertEqual(len(blocks), naive_count(text))
                self.assertTrue(all(b.text.strip() for b in blocks), "an empty block")
            runnable += sum(b.kind != "skip" for b in blocks)
        # README's and control-plane.md's examples alone are more than this.
        self.assertGreater(runnable, 20)


BINARY = os.path.join(ROOT, ".build", "debug", "understudy")


@unittest.skipUnless(os.access(BINARY, os.X_OK), "needs the debug build")
class RunnerTests(unittest.TestCase):
    """The runner on made-up pages, in a namespace of its own with the debug server, as in CI."""

    def run_page(self, text, **env):
        with tempfile.NamedTemporaryFile("w", suffix=".md", delete=False) as page:
            page.write(textwrap.dedent(text))
        try:
            result = subprocess.run(
                [sys.executable, os.path.join(HERE, "run.py"), page.name], capture_output=True, text=True,
                env={**os.environ, **env}, timeout=120,
            )
        finally:
            os.remove(page.name)
        return result.returncode, result.stdout

    def test_one_shell_per_page_and_each_marker(self):
        status, out = self.run_page(
            """\
            ```sh
            greeting=hello
            mkdir -p sub && cd sub && echo "$greeting" > file
            ```

            <!-- doctest: skip (needs a device) -->
            ```sh
            exit 1
            ```

            ```sh
            [ "$greeting" = hello ] && [ "$(cat file)" = hello ]
            curl -s localhost:8080/__admin/projects/demo > /dev/null
            ```

            <!-- doctest: fails (a 404) -->
            ```sh
            curl -s localhost:8080/__admin/projects/no-such-project
            ```

            <!-- doctest: no-server -->
            ```sh
            ! curl -s localhost:8080/__admin/health
            ```
            """
        )
        self.assertIn("5 shell blocks: 4 ran, 4 passed, 1 skipped", out)
        self.assertIn("needs a device", out)
        self.assertTrue(out.endswith("4 passed, 0 failed\n"), out)
        self.assertEqual(status, 0, out)

    def test_a_block_that_raises_findings_fails_unless_marked(self):
        register = (
            'P=$(curl -s -X POST localhost:8080/__admin/projects -d \'{"name": "f"}\' | jq -r .id)\n'
            'K=$(curl -s localhost:8080/__admin/projects/$P | jq -r .credentials.asleep.apiKey)\n'
            "for i in 1 2; do curl -s -o /dev/null -X POST localhost:8080/asleep/ai/v1/products -H \"x-api-key: $K\" "
            "-H 'Content-Type: application/json' -d '{\"model\": \"m\", \"identifier_type\": \"SERIAL\", \"identifier_value\": \"S-1\"}'; done\n"
        )
        status, out = self.run_page("```sh\n" + register + "```\n")
        self.assertIn("raised integration-check findings", out)
        self.assertIn("asleep.setup-repeated on SERIAL:S-1", out)
        self.assertNotEqual(status, 0, out)
        status, out = self.run_page("<!-- doctest: findings (registers twice on purpose) -->\n```sh\n" + register + "```\n")
        self.assertTrue(out.endswith("1 passed, 0 failed\n"), out)
        self.assertEqual(status, 0, out)

    def test_failures_name_the_block_the_command_and_its_output(self):
        status, out = self.run_page(
            """\
            ```sh
            echo before
            false
            echo never
            ```

            ```sh
            curl -s -X POST localhost:8080/__admin/projects -d '{"id": "twice"}' > /dev/null
            curl -s -X POST localhost:8080/__admin/projects -d '{"id": "twice"}'
            ```

            <!-- doctest: fails (x) -->
            ```sh
            true
            ```

            <!-- doctest: fails (x) -->
            ```sh
            false
            false
            ```

            ```sh
            understudy faults add --status 503
            ```
            """
        )
        self.assertEqual(status, 1)
        self.assertIn("5 ran, 0 passed", out)
        self.assertIn(":1 (run): status 1 from: false", out)
        self.assertIn("  > before\n", out)
        self.assertNotIn("  > never", out)
        self.assertIn("status 22 from: curl", out)  # a 409 is a failure
        self.assertIn('"code":"conflict"', out)
        self.assertIn("marked `fails`, but every command succeeded", out)
        self.assertIn("marked `fails`: 2 commands failed", out)
        self.assertIn("it leaves fault rules for every project", out)
        self.assertTrue(out.endswith("0 passed, 5 failed\n"), out)

    def test_a_block_that_outlives_its_time_fails_and_ends_the_page(self):
        status, out = self.run_page(
            """\
            ```sh
            sleep 30
            ```

            ```sh
            true
            ```
            """,
            DOCTEST_BLOCK_SECONDS="1",
        )
        self.assertEqual(status, 1)
        self.assertIn("still running after 1 s", out)
        self.assertIn("not run: the page's shell had ended", out)
        self.assertIn("1 ran, 0 passed", out)

    def test_a_serve_block_is_the_server_of_the_blocks_after_it(self):
        status, out = self.run_page(
            """\
            <!-- doctest: serve -->
            ```sh
            swift run understudy --fixtures ""   # no demo project
            ```

            <!-- doctest: fails (no demo project on this server) -->
            ```sh
            curl -s localhost:8080/__admin/projects/demo
            ```

            <!-- doctest: fails (swift is the debug build's `run understudy` only) -->
            ```sh
            swift build
            ```
            """
        )
        self.assertIn("3 ran, 3 passed", out)
        self.assertEqual(status, 0, out)

    def test_nothing_leaves_the_namespace(self):
        status, out = self.run_page(
            """\
            <!-- doctest: fails (no route out of the page's namespace) -->
            ```sh
            curl -s --max-time 5 http://1.1.1.1/
            ```
            """
        )
        self.assertIn("1 ran, 1 passed", out)
        self.assertEqual(status, 0, out)


if __name__ == "__main__":
    unittest.main()
