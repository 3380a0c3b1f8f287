"""Schemathesis hooks for .ci/schemathesis.sh. Each one says why it exists; none changes what
the server answers or which answers count as failures."""
import schemathesis

WAIT_CAP_MS = 50


def is_integer(value):
    return isinstance(value, int) and not isinstance(value, bool)


# `POST /__admin/projects/{id}/requests/wait` is a long poll: it answers once `count` matching
# requests exist or when `timeoutMs` (default 5000, documented maximum 120000) has passed. The
# generated filters almost never match, so a valid wait lasts its whole timeout: two minutes at
# the maximum, which the coverage phase always tries. Valid timeouts are cut to 50 ms (and a
# missing one, which means 5 s, is set to 50 ms); values outside the documented range are sent as
# generated, so the 400 for them is still checked.
@schemathesis.hook("before_call").apply_to(path="/__admin/projects/{id}/requests/wait")
def short_waits(context, case, kwargs):
    body = case.body
    if not isinstance(body, dict):
        return
    timeout = body.get("timeoutMs", WAIT_CAP_MS + 1)
    if is_integer(timeout) and WAIT_CAP_MS < timeout <= 120_000:
        body["timeoutMs"] = WAIT_CAP_MS


# `GET /__admin/projects/{id}/requests` and the journal across projects, `GET /__admin/requests`,
# with `after` and `waitMs` (documented maximum 60000) are the same kind of long poll, answered
# with an empty page at the deadline. Valid waits are cut to 50 ms for the same reason;
# out-of-range and non-numeric values are sent as generated.
@schemathesis.hook("before_call").apply_to(path="/__admin/projects/{id}/requests", method="GET")
def short_polls(context, case, kwargs):
    cut_wait(case)


@schemathesis.hook("before_call").apply_to(path="/__admin/requests", method="GET")
def short_global_polls(context, case, kwargs):
    cut_wait(case)


def cut_wait(case):
    query = case.query
    if not isinstance(query, dict):
        return
    wait = query.get("waitMs")
    if isinstance(wait, str) and wait.isdigit():
        wait = int(wait)
    if is_integer(wait) and WAIT_CAP_MS < wait <= 60_000:
        query["waitMs"] = WAIT_CAP_MS
