"""The replay corpus: the fixed list of requests record.py sends, section by section.

Each platform section (warplink, asleep, warrantylife, telematics, in that order) is:

  1. the platform's served OpenAPI document (so a changed document shows as a changed answer);
  2. the demo project reset (fixtures back, journal emptied) and its clock frozen at FROZEN_AT;
  3. the requests that obtain the section's credentials (examples.demo_credentials);
  4. the deliberate error cases of ERROR_CASES (before the examples, which may revoke credentials);
  5. every operation of the document with each of its example bodies: SDK operations first in
     path order (those in LAST, which end the caller's session, after the others), then the
     platform's control-plane operations in path order;
  6. the journal entries since the previous section: the demo project's and those of no project
     (documents, requests refused before a credential named a project).

Then the control plane's section: its own document, the CONTROL_PLANE calls and their journal.

Nothing here is random: e-mail addresses and multipart boundaries are fixed, and long-poll waits
are cut to 20 ms as the extremes fuzzer does (a wait that finds nothing answers the same way).
"""
import copy

import operations as ops

PLATFORMS = ["warplink", "asleep", "warrantylife", "telematics"]
FROZEN_AT = "2030-01-01T00:00:00Z"
# The WarrantyLife user examples.demo_credentials registers; fixed so the recording repeats.
CREDENTIALS_EMAIL = "replay@example.com"
BOUNDARY = "replay-boundary-0000"

# SDK operations that end the section's session or credentials: sent after the other SDK
# operations, so those run authenticated.
LAST = {
    "asleep": {"deleteAllSessions", "deleteUser"},
    "warrantylife": {"revokeToken"},
    "telematics": {"logout", "clearVehicle"},
}

# Deliberate errors per platform, each (label, method, path, headers, body). `headers` may name a
# credential kind from examples.demo_credentials as {"auth": scheme}; bodies are bytes, or
# ("retyped", operationId) for that operation's first example with its first leaf's type changed.
ERROR_CASES = {
    "warplink": [
        ("missing credential", "GET", "/warplink/v1/sdk/validate", {}, None),
        ("wrong credential", "GET", "/warplink/v1/sdk/validate", {"Authorization": "Bearer wl_live_wrong000000000000000000000000"}, None),
        ("malformed bearer", "GET", "/warplink/v1/sdk/validate", {"Authorization": "Bearer"}, None),
        ("unknown route", "GET", "/warplink/v1/no-such-route", {"auth": "bearerKey"}, None),
        ("wrong method", "DELETE", "/warplink/v1/sdk/validate", {"auth": "bearerKey"}, None),
        ("malformed JSON", "POST", "/warplink/v1/attribution/match", {"auth": "bearerKey", "Content-Type": "application/json"}, b'{"platform": '),
        ("wrong type", "POST", "/warplink/v1/attribution/match", {"auth": "bearerKey", "Content-Type": "application/json"}, ("retyped", "matchAttributionV1")),
        ("unknown slug", "GET", "/warplink/v1/links/resolve/no-such-slug", {"auth": "bearerKey"}, None),
    ],
    "asleep": [
        ("missing credential", "GET", "/asleep/data/v1/sessions", {}, None),
        ("wrong API key", "GET", "/asleep/data/v1/sessions", {"x-api-key": "wrong-asleep-api-key"}, None),
        ("wrong access token", "GET", "/asleep/data/v1/sessions", {"Authorization": "Bearer wrong-access-token"}, None),
        ("wrong app secret", "POST", "/asleep/customer/v1/app/token", {"Content-Type": "application/json"}, b'{"app_id":"app_demo000000000000","app_secret":"wrong"}'),
        ("unknown route", "GET", "/asleep/ai/v1/no-such-route", {"auth": "apiKey"}, None),
        ("wrong method", "PUT", "/asleep/ai/v1/sessions", {"auth": "apiKey"}, None),
        ("malformed JSON", "POST", "/asleep/ai/v1/users", {"auth": "apiKey", "Content-Type": "application/json"}, b'{"user_id": '),
        ("wrong type", "POST", "/asleep/ai/v1/users", {"auth": "apiKey", "Content-Type": "application/json"}, ("retyped", "createUser")),
    ],
    "warrantylife": [
        ("missing developer key", "GET", "/warrantylife/mapi/wi/100/app-config", {}, None),
        ("wrong developer key", "GET", "/warrantylife/mapi/wi/100/app-config", {"X-WL-Developer-Key": "wrong0000000000000000000000000000"}, None),
        ("missing user credential", "GET", "/warrantylife/mapi/wi/100/whoami", {"auth": "developerKey"}, None),
        ("wrong user token", "GET", "/warrantylife/mapi/wi/100/whoami", {"auth": "developerKey", "Authorization": "Bearer wrong-user-token"}, None),
        ("unknown route", "GET", "/warrantylife/mapi/wi/100/no-such-route", {"auth": "developerKey"}, None),
        ("wrong method", "DELETE", "/warrantylife/mapi/wi/100/app-config", {"auth": "developerKey"}, None),
        ("malformed JSON", "POST", "/warrantylife/mapi/wi/100/items", {"auth": ("developerKey", "userBearer"), "Content-Type": "application/json"}, b'{"deviceId": '),
        ("wrong type", "POST", "/warrantylife/mapi/wi/100/items", {"auth": ("developerKey", "userBearer"), "Content-Type": "application/json"}, ("retyped", "createItem")),
    ],
    "telematics": [
        ("missing credential", "GET", "/telematics/api/v1/users/me", {}, None),
        ("wrong credential", "GET", "/telematics/api/v1/users/me", {"Authorization": "Bearer tma_wrong"}, None),
        ("unknown route", "GET", "/telematics/api/v1/no-such-route", {"auth": "bearer"}, None),
        ("wrong method", "DELETE", "/telematics/api/v1/trips", {"auth": "bearer"}, None),
        ("malformed JSON", "POST", "/telematics/api/v1/manual-events", {"auth": "bearer", "Content-Type": "application/json"}, b'{"type": '),
        ("wrong type", "POST", "/telematics/api/v1/manual-events", {"auth": "bearer", "Content-Type": "application/json"}, ("retyped", "insertManualEvent")),
        ("wrong refresh token", "POST", "/telematics/api/v1/auth/refresh", {"Content-Type": "application/json"}, b'{"refreshToken":"tmr_wrong"}'),
    ],
}

# The control plane's section, after the platforms: (label, method, path, headers, body).
CONTROL_PLANE = [
    ("list projects", "GET", "/__admin/projects", {}, None),
    ("get project", "GET", "/__admin/projects/demo", {}, None),
    ("get clock", "GET", "/__admin/projects/demo/clock", {}, None),
    ("unknown project", "GET", "/__admin/projects/no-such-project", {}, None),
    ("malformed clock", "PUT", "/__admin/projects/demo/clock", {"Content-Type": "application/json"}, b'{"mode": '),
    ("wrong clock mode", "PUT", "/__admin/projects/demo/clock", {"Content-Type": "application/json"}, b'{"mode":"sideways"}'),
    ("unknown admin route", "GET", "/__admin/no-such-route", {}, None),
    ("list faults", "GET", "/__admin/projects/demo/faults", {}, None),
]


def ordered_operations(document, name):
    """The document's operations in the order they are sent (see the module's docstring)."""
    every = ops.operations(document, name)
    sdk = [o for o in every if not o.is_control_plane]
    last = LAST.get(name, set())
    return ([o for o in sdk if o.id not in last] + [o for o in sdk if o.id in last]
            + [o for o in every if o.is_control_plane])


def example_bodies(operation):
    """Each example body the document gives the operation ([None] when it takes none), with
    long-poll waits cut."""
    if not operation.bodies:
        return [None]
    return [(content_type, ops.shortened(example), schema) for content_type, example, schema in operation.bodies]


def retyped(example):
    """A copy of a JSON example whose first top-level member has the wrong type: a string becomes
    the number 12345, anything else the string "wrong-type"."""
    example = copy.deepcopy(example)
    if isinstance(example, dict) and example:
        key = next(iter(example))
        example[key] = 12345 if isinstance(example[key], str) else "wrong-type"
    return example
