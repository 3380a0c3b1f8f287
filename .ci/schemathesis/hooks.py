"""Schemathesis hooks for .ci/schemathesis.sh. Each one says why it exists; none changes what
the server answers or which answers count as failures."""
import schemathesis

WAIT_CAP_MS = 50


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
    if isinstance(timeout, int) and not isinstance(timeout, bool) and WAIT_CAP_MS < timeout <= 120_000:
        body["timeoutMs"] = WAIT_CAP_MS
