"""The extreme values the fuzzer puts in place of a document's numeric and date leaves.

Every value is the raw text that goes on the wire: numbers as literal JSON tokens (`1e400` is a
number JSON may carry; Python's json would write `Infinity`), dates as strings.
"""

# The brief's list: each numeric leaf gets every one of these, in this order.
NUMBERS = [
    "1e300", "-1e300", "9.3e18", "-9.3e18", "18446744073709551616", "-9223372036854775809",
    "9223372036854775807", "-9223372036854775808", "1e19", "4294967296", "1.5", "-1", "0",
    "1e-300", "1e400",
]
# More for `--long`: edges of 32-bit, 53-bit and millisecond ranges, negative zero, denormals.
MORE_NUMBERS = [
    "-1e400", "-0", "2147483648", "-2147483649", "9007199254740993", "-9007199254740993", "9e15",
    "1e17", "8.64e15", "8.64e12", "253402300800", "253402300800000", "-62135596800", "4.9e-324",
    "1.7976931348623157e308", "123456789012345678901234567890", "0.0000001", "-0.5", "100000000000",
    "3.5e9", "-3.5e9", "1E+19", "1e-7",
]

# Odd date-times: years 0, 9999 and past it, negative years, 24:00, far offsets, 9-digit fractions.
DATE_TIMES = [
    "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z", "99999-01-01T00:00:00Z",
    "-0001-01-01T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T00:00:00+99:59",
    "2026-01-01T00:00:00-23:59", "2026-01-01T00:00:00.123456789Z", "+275760-09-13T00:00:00Z",
    "1e999",
]
MORE_DATE_TIMES = [
    "-271821-04-20T00:00:00Z", "2026-02-30T00:00:00Z", "2026-12-31T23:59:60Z", "0001-01-01T00:00:00Z",
    "292277026596-12-04T15:30:07Z", "2026-01-01T00:00:00.9999999999999Z", "2026-01-01T00:00:00+24:00",
    "1969-12-31T23:59:59.999Z", "9999-12-31T23:59:59+14:00", "0000-01-01T00:00:00-14:00", "",
]
DATES = ["0000-01-01", "9999-12-31", "99999-01-01", "-0001-01-01", "2026-02-30", "+275760-09-13"]
MORE_DATES = ["0001-01-01", "1582-10-10", "2026-13-01", "-271821-04-20", "292277026596-12-04"]
# WarrantyLife's `yyyy-MM-dd HH:mm:ss.SSS` stamps.
SPACED = ["0000-01-01 00:00:00.000", "9999-12-31 23:59:59.999", "99999-01-01 00:00:00.000",
          "2026-01-01 24:00:00.000", "2026-01-01 00:00:00.123456789"]


def numbers(long):
    return NUMBERS + (MORE_NUMBERS if long else [])


def dates(kind, long):
    """The odd values for a date leaf of `kind` (date-time, date or spaced)."""
    if kind == "date":
        return DATES + (MORE_DATES if long else [])
    if kind == "spaced":
        return SPACED + (DATE_TIMES[:4] if long else [])
    return DATE_TIMES + (MORE_DATE_TIMES if long else [])
