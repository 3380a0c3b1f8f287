#!/usr/bin/env python3
"""Tests of the replay harness's own logic, without a server: each normalization rule of
normalize.py replaces what it should and keeps what it should not touch, and compare.py tells
identical recordings from different ones.

Usage: python3 .ci/replay/test_replay.py
"""
import datetime
import json
import os
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from normalize import Normalizer  # noqa: E402

# A recording that ran from 2026-12-06T20:36:00Z for two seconds.
START = datetime.datetime(2026, 12, 6, 20, 36, 0, tzinfo=datetime.timezone.utc).timestamp()


def normalizer():
    return Normalizer(work="/tmp/replay-abc", ports={"http": 18123, "https": 44163, "proxy": 43985}, window=(START, START + 2))


class NormalizeTests(unittest.TestCase):
    def test_run_values(self):
        text = normalizer().text('{"ca":"/tmp/replay-abc/understudy-ca.pem","url":"http://127.0.0.1:44163/x","p":"127.0.0.1:43985"}')
        self.assertEqual(text, '{"ca":"<work>/understudy-ca.pem","url":"http://127.0.0.1:<https-port>/x","p":"127.0.0.1:<proxy-port>"}')

    def test_wall_clock_times_keep_their_format_and_day_offset(self):
        n = normalizer()
        self.assertEqual(n.text("2026-12-06T20:36:01.234Z"), "<wall-clock>.fffZ")
        self.assertEqual(n.text("2026-12-06T20:36:00Z"), "<wall-clock>Z")
        self.assertEqual(n.text("2027-12-06T20:36:01.818138Z"), "<wall-clock+365d>.ffffffZ")
        self.assertEqual(n.text("2026-12-01T20:36:01.818138Z"), "<wall-clock-5d>.ffffffZ")
        self.assertEqual(n.text("2026-12-06T21:36:01+01:00"), "<wall-clock>+01:00")

    def test_times_outside_the_window_are_kept(self):
        n = normalizer()
        # The frozen clock, a fixture's date, and a time of day ten seconds after the recording.
        for text in ("2030-01-01T00:00:00.000Z", "2026-03-01T22:00:00Z", "2026-12-06T20:36:15Z"):
            self.assertEqual(n.text(text), text)

    def test_epochs(self):
        n = normalizer()
        self.assertEqual(n.text(str(int(START) + 60)), "<wall-clock-epoch-s>")
        self.assertEqual(n.text(str(int(START * 1000))), "<wall-clock-epoch-ms>")
        self.assertEqual(n.text("1893456060"), "1893456060")  # 2030-01-01T00:01:00Z: the frozen clock's

    def test_generated_values_are_numbered_by_first_appearance(self):
        n = normalizer()
        first = "0b58c936-13ac-4c3e-8831-c012812db303"
        second = "d010c153-3d74-49ab-8c16-c03247dcc3e7"
        self.assertEqual(n.text(f"{first} {second} {first}"), "<uuid-1> <uuid-2> <uuid-1>")
        self.assertEqual(n.text(second), "<uuid-2>")
        self.assertEqual(n.text("tma_demo000000_CeK1adT3wDhkKDUTCQQc1O1ZayFvxnMI"), "tma_demo000000_<token-1>")
        self.assertEqual(n.text("wl_live_T9H7wBlKWvAgtRIsP7wfY20HyRJuAa9Y"), "wl_live_<token-2>")

    def test_number_ids_become_strings_in_plain_and_nested_json(self):
        n = normalizer()
        self.assertEqual(n.text('{"userId":6552313,"id":"6552313","count":6552313}'),
                         '{"userId":"<number-id-1>","id":"<number-id-1>","count":6552313}')
        nested = json.dumps({"responseBody": '{"itemId":32558745}'})
        self.assertEqual(json.loads(json.loads(n.text(nested))["responseBody"]), {"itemId": "<number-id-2>"})
        self.assertEqual(n.text('{"id":1001}'), '{"id":1001}')  # a fixture's small id

    def test_trace_ids(self):
        n = normalizer()
        self.assertEqual(n.trace("118"), "<trace-1>")
        self.assertEqual(n.text('{"traceId":118}'), '{"traceId":"<trace-1>"}')
        self.assertEqual(n.trace(119), "<trace-2>")

    def test_base64_of_generated_values_and_redacted_tails(self):
        n = normalizer()
        token = "4c768812fc1729f20f1efc4c102d635b8e985cd2"
        self.assertEqual(n.text(token), "<hex40-1>")
        basic = "cmVwbGF5QGV4YW1wbGUuY29tOjRjNzY4ODEyZmMxNzI5ZjIwZjFlZmM0YzEwMmQ2MzViOGU5ODVjZDI="  # replay@example.com:TOKEN
        self.assertEqual(n.text("Basic " + basic), "Basic <base64:replay@example.com:<hex40-1>>")
        self.assertEqual(n.text("Bearer [redacted …5cd2]"), "Bearer [redacted …<tail of <hex40-1>>]")
        self.assertEqual(n.text("[redacted …zzzz]"), "[redacted …zzzz]")  # the tail of nothing replaced
        self.assertEqual(n.text("QWxhZGRpbjpvcGVu"), "QWxhZGRpbjpvcGVu")  # base64 of fixed text stays

    def test_durations(self):
        self.assertEqual(normalizer().text('{"durationMs":1.365,"status":200}'), '{"durationMs":"<duration>","status":200}')


class CompareTests(unittest.TestCase):
    def compare(self, a, b):
        with tempfile.TemporaryDirectory() as directory:
            paths = []
            for name, records in (("a", a), ("b", b)):
                paths.append(os.path.join(directory, name))
                with open(paths[-1], "w") as file:
                    file.writelines(json.dumps(record) + "\n" for record in records)
            return subprocess.run([sys.executable, os.path.join(HERE, "compare.py"), *paths], capture_output=True, text=True)

    def exchange(self, n, status, body):
        return {"kind": "exchange", "n": n, "section": "s", "case": "c", "method": "GET", "path": "/p", "query": "",
                "status": status, "headers": [], "body": body}

    def test_identical(self):
        records = [self.exchange(1, 200, {"a": 1}), {"kind": "journal", "n": 1, "section": "s", "entry": {"status": 200}}]
        result = self.compare(records, records)
        self.assertEqual(result.returncode, 0)
        self.assertEqual(result.stdout.strip(), "1 exchanges, 1 journal entries, 0 differ")

    def test_a_changed_answer_and_an_extra_exchange(self):
        a = [self.exchange(1, 200, {"a": 1}), self.exchange(2, 200, {"b": 2})]
        b = [self.exchange(1, 404, {"a": 1}), self.exchange(2, 200, {"b": 2}), self.exchange(3, 200, {})]
        result = self.compare(a, b)
        self.assertEqual(result.returncode, 1)
        self.assertIn('- "status": 200,', result.stdout)
        self.assertIn('+ "status": 404,', result.stdout)
        self.assertEqual(result.stdout.strip().splitlines()[-1], "2 (B: 3) exchanges, 0 journal entries, 2 differ")


if __name__ == "__main__":
    unittest.main()
