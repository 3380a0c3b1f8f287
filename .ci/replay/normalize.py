"""What a replay recording (record.py) normalizes, and nothing else: values that legitimately
differ from one run of the same binary to the next. Every other byte is compared as received.

Applied to every string of a recording (paths, queries, header values, bodies as text, journal
entries), in this order:

  1. The run itself: the temporary directory -> `<work>`; `127.0.0.1:PORT` of the HTTP, HTTPS and
     proxy listeners -> `127.0.0.1:<http-port>`, `<https-port>`, `<proxy-port>`.
  2. Wall-clock times. The demo clock is frozen, but some times come from the real clock (rows
     the demo fixtures write at a reset, the journal's `time`, answers to requests that name no
     project). An ISO-8601 time whose time of day falls in the recording's wall-clock window (to
     the second) -> `<wall-clock>`, or `<wall-clock+365d>` for one a whole number of days away (an
     expiry a year on), with the fraction's digits as `f` and the zone kept, so the format still
     shows: `<wall-clock>.fffZ`. Epoch seconds (10 digits) and milliseconds (13) within a day of
     the window -> `<wall-clock-epoch-s>` / `<wall-clock-epoch-ms>`. These are not numbered: two
     stamps are equal or not by the accident of timing.
  3. Durations: the journal's `durationMs` number -> "<duration>" (a string).
  4. Generated identifiers, tokens and secrets, each kind numbered by first appearance in the
     recording, so a value that repeats stays recognisably the same (`<uuid-3>` is one id):
       uuid    any UUID (8-4-4-4-12 hex) -> `<uuid-N>`
       token   the random part of a prefixed token -> `PREFIX<token-N>`: sec_, pk_, at_, rt_,
               tp_, wl_live_, wl_test_ (WarpLink, Asleep, Telematics pairs), tma_T_ and tmr_T_
               (Telematics access and refresh tokens of tenant T), G-<14 digits>- (Asleep user ids)
       hex40   40 lower-case hex digits (WarrantyLife user tokens) -> `<hex40-N>`
       number-id  a 6-8 digit number under a member named `id` or `…Id` (WarrantyLife draws its
               ids at random from 100000-99999999) -> "<number-id-N>" (a string, even where the
               number was a JSON number)
       trace   a journal id: the number in an `X-Understudy-Trace` header, a `traceId` member
               and (record.py) a journal entry's `id` -> "<trace-N>". The journal counts every
               request of the process, the readiness polls before the recording included, so
               the first id differs by a few from run to run.
  5. Base64 that decodes to text holding a value of 4. (a WarrantyLife `encodedId`, a Basic
     credential), or to exactly such a value -> `<base64:decoded text, normalized>`.
  6. A journal's redacted credential, `[redacted …TAIL]`, whose TAIL ends exactly one value that
     4. or 5. replaced -> `[redacted …<tail of PLACEHOLDER>]`.

Values fixed by the demo fixtures that fit a pattern of 4. (a fixture's UUID, the demo tokens) are
numbered too. Their identity survives (the same value is the same placeholder everywhere,
including in the paths the examples request), but a refactor that changed one would show only
where it changes what the server does with it.

Content-Length and the journal's body sizes are not normalized here: record.py writes
`<body length>` where the number is the length of the body recorded with it, and keeps any other
number.
"""
import base64
import binascii
import datetime
import re

DAY = 86400
ISO_TIME = re.compile(r"(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:?\d{2})?")
EPOCH = re.compile(r"(?<![\w.])(\d{10}|\d{13})(?![\w.])")
DURATION = re.compile(r'(\\?")durationMs\1:(-?[0-9.eE+-]+)')
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
TOKEN = re.compile(r"\b(sec_|pk_|at_|rt_|tp_|wl_live_|wl_test_|tm[ar]_[a-z0-9]+_|G-\d{14}-)([A-Za-z0-9]{12,})\b")
HEX40 = re.compile(r"(?<![0-9a-f])[0-9a-f]{40}(?![0-9a-f])")
TRACE = re.compile(r'(\\?")(traceId|x-understudy-trace)\1:(\1)?(\d+)', re.IGNORECASE)
NUMBER_ID = re.compile(r'(\\?")(id|[a-z][A-Za-z]*Id)\1:(\1)?(\d{6,8})(?!\d)')
BASE64 = re.compile(r"(?<![A-Za-z0-9+/=])(?:[A-Za-z0-9+/]{4}){2,}(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?(?![A-Za-z0-9+/=])")
REDACTED = re.compile(r"\[redacted …([^\]\s]{1,8})\]")


class Normalizer:
    def __init__(self, work, ports, window):
        """`ports`: role -> port; `window`: (first, last) wall-clock seconds of the recording."""
        self.fixed = [(work, "<work>")] + [(f"127.0.0.1:{port}", f"127.0.0.1:<{role}-port>") for role, port in ports.items()]
        self.window = (int(window[0]) - 1, int(window[1]) + 2)
        self.placeholders = {}  # (kind, original) -> placeholder
        self.counts = {}  # kind -> placeholders handed out
        self.originals = {}  # original value -> placeholder, for rule 6

    def text(self, text):
        for value, placeholder in self.fixed:
            text = text.replace(value, placeholder)
        text = ISO_TIME.sub(self.wall_clock_time, text)
        text = EPOCH.sub(self.wall_clock_epoch, text)
        text = DURATION.sub(lambda m: f'{m[1]}durationMs{m[1]}:{m[1]}<duration>{m[1]}', text)
        text = self.generated(text)
        text = BASE64.sub(self.base64, text)
        return REDACTED.sub(self.redacted, text)

    def generated(self, text):
        """Rule 4 on `text`."""
        text = UUID.sub(lambda m: self.numbered("uuid", m[0]), text)
        text = TOKEN.sub(lambda m: m[1] + self.numbered("token", m[2]), text)
        text = HEX40.sub(lambda m: self.numbered("hex40", m[0]), text)
        text = TRACE.sub(lambda m: self.quoted(m, "trace"), text)
        return NUMBER_ID.sub(lambda m: self.quoted(m, "number-id"), text)

    def trace(self, value):
        """Rule 4's trace placeholder for a journal id given on its own (a header, an entry's id)."""
        return self.numbered("trace", str(value))

    def numbered(self, kind, original):
        key = (kind, original)
        if key not in self.placeholders:
            self.counts[kind] = self.counts.get(kind, 0) + 1
            self.placeholders[key] = f"<{kind}-{self.counts[kind]}>"
            self.originals[original] = self.placeholders[key]
        return self.placeholders[key]

    def quoted(self, match, kind):
        """`"key":"<kind-N>"` for a `"key":NUMBER` or `"key":"NUMBER` match (escaped quotes kept)."""
        quote, key, opened, number = match[1], match[2], match[3], match[4]
        placeholder = self.numbered(kind, number)
        # A quoted number keeps its closing quote in the text; a bare one is quoted here.
        return f"{quote}{key}{quote}:{quote}{placeholder}" + ("" if opened else quote)

    def in_window(self, seconds, slack=0):
        return self.window[0] - slack <= seconds <= self.window[1] + slack

    def wall_clock_time(self, match):
        day, hours, minutes, seconds, fraction, zone = match.groups()
        try:
            date = datetime.date.fromisoformat(day)
        except ValueError:
            return match[0]
        # Seconds since 1970 of the stamp read as UTC; an offset zone moves it by its offset.
        stamp = (date - datetime.date(1970, 1, 1)).days * DAY + int(hours) * 3600 + int(minutes) * 60 + int(seconds)
        if zone and zone != "Z":
            sign = 1 if zone[0] == "+" else -1
            digits = zone[1:].replace(":", "")
            stamp -= sign * (int(digits[:2]) * 3600 + int(digits[2:]) * 60)
        days = round((stamp - self.window[0]) / DAY)
        if not self.in_window(stamp - days * DAY):
            return match[0]
        offset = "" if days == 0 else f"{days:+d}d"
        return f"<wall-clock{offset}>" + (f".{'f' * len(fraction)}" if fraction else "") + (zone or "")

    def wall_clock_epoch(self, match):
        digits = match[1]
        seconds = int(digits) // (1000 if len(digits) == 13 else 1)
        if not self.in_window(seconds, slack=DAY):
            return digits
        return "<wall-clock-epoch-ms>" if len(digits) == 13 else "<wall-clock-epoch-s>"

    def base64(self, match):
        try:
            decoded = base64.b64decode(match[0], validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            return match[0]
        if not decoded.isprintable():
            return match[0]
        normalized = self.originals.get(decoded) or self.generated(decoded)
        if normalized == decoded:
            return match[0]
        self.originals[match[0]] = f"<base64:{normalized}>"
        return self.originals[match[0]]

    def redacted(self, match):
        tail = match[1]
        candidates = {placeholder for original, placeholder in self.originals.items() if original.endswith(tail)}
        if len(candidates) != 1:
            return match[0]
        return f"[redacted …<tail of {candidates.pop()}>]"
