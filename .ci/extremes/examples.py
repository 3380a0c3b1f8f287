"""Requests built from a served document's examples, shared by the extremes fuzzer (run.py) and the
replay recorder (.ci/replay/record.py): the credentials each platform document's security schemes
name (on the demo project), the headers that carry them, and an operation's request (target with
path, query and header parameters filled, body encoded for its content type).

Randomness stays with the caller: the fuzzer passes fresh e-mail addresses and multipart
boundaries, the recorder fixed ones so that a recording repeats.
"""
import base64
import json
from urllib.parse import quote

import operations as ops

# The bytes sent for a binary part (an audio clip, an image, an upload): a WAV header and silence.
PLACEHOLDER_BYTES = b"RIFF\x24\x00\x00\x00WAVEfmt " + bytes(32)


def demo_credentials(server, name, email):
    """Scheme name -> (kind, value) for document `name`'s SDK operations on the demo project.

    `kind` is `bearer`, `basic` or a header name. Asleep's access token, a WarrantyLife user (made
    with `email`) and a Telematics token pair are obtained from the server, so this sends requests.
    The control plane's document (and any other) needs none: {}."""
    demo = server.json("GET", "/__admin/projects/demo")["credentials"] if name != "openapi" else {}
    if name == "warplink":
        return {"bearerKey": ("bearer", demo["warplink"]["sdkKey"])}
    if name == "asleep":
        asleep = demo["asleep"]
        token = server.json("POST", "/asleep/customer/v1/app/token", {"app_id": asleep["appId"], "app_secret": asleep["appSecret"]})
        return {"apiKey": ("x-api-key", asleep["apiKey"]), "accessToken": ("bearer", token["result"]["access_token"])}
    if name == "warrantylife":
        user = server.json("POST", "/__admin/projects/demo/warrantylife/users",
                           {"email": email, "firstName": "Extreme", "password": "secret-pass"})
        return {"developerKey": ("X-WL-Developer-Key", demo["warrantylife"]["developerKey"]),
                "userBasic": ("basic", f"{user['identity']}:{user['token']}"), "userBearer": ("bearer", user["token"])}
    if name == "telematics":
        pair = server.json("POST", "/__admin/projects/demo/telematics/tokens", {"userId": 1001, "userName": "Extreme"})
        return {"bearer": ("bearer", pair["token"])}
    return {}


def auth_headers(credentials, operation):
    """The headers for the operation's first security alternative, from `credentials`."""
    return scheme_headers(credentials, operation.security[0] if operation.security else [])


def scheme_headers(credentials, schemes):
    """The headers that carry each of `schemes` (names of `credentials`; unknown ones add none)."""
    headers = {}
    for scheme in schemes:
        kind, value = credentials.get(scheme, (None, None))
        if kind == "bearer":
            headers["Authorization"] = "Bearer " + value
        elif kind == "basic":
            headers["Authorization"] = "Basic " + base64.b64encode(value.encode()).decode()
        elif kind:
            headers[kind] = value
    return headers


def build(operation, project, credentials, body=None, parameter=None, query=None, boundary="examples-boundary"):
    """(method, target, body bytes, headers) for the operation.

    Path parameters of `/__admin/projects/{id}` get `project`, the others their example; query and
    header parameters their example (`parameter` = (parameter, raw text) replaces one of them).
    `query` (a list of `name=value`) replaces the whole query string. `body` = (content type,
    example value, schema) is sent as it is, encoded for its content type."""
    path_values = {"id": project}
    headers = auth_headers(credentials, operation)
    query_items = []
    for candidate in operation.parameters:
        if candidate["in"] == "path":
            continue
        value = operation.parameter_value(candidate, path_values)
        if parameter and parameter[0] is candidate:
            value = parameter[1]
        if value is None:
            continue
        if candidate["in"] == "query":
            query_items.append(f"{quote(candidate['name'])}={quote(value, safe='')}")
        elif candidate["in"] == "header":
            headers[candidate["name"]] = value
    override = parameter if parameter and parameter[0]["in"] == "path" else None
    if query is not None:
        query_items = query
    target = ops.url_path(operation, path_values, override) + ("?" + "&".join(query_items) if query_items else "")
    data = None
    if body is not None:
        content_type, example, schema = body
        data, headers["Content-Type"] = encode(operation, content_type, example, schema, boundary)
    return operation.method, target, data, headers


def encode(operation, content_type, example, schema, boundary):
    """The body bytes and Content-Type for an example (JSON, form or multipart; PLACEHOLDER_BYTES
    for a binary body or file part)."""
    if content_type == "application/json" or content_type.endswith("+json"):
        return ops.dump(example).encode(), content_type
    if content_type == "application/octet-stream":
        return PLACEHOLDER_BYTES, content_type
    fields = example if isinstance(example, dict) else {}
    text = {key: value.text if isinstance(value, ops.Raw) else (json.dumps(value) if isinstance(value, (dict, list, bool)) else str(value))
            for key, value in fields.items()}
    if content_type == "application/x-www-form-urlencoded":
        return "&".join(f"{quote(k)}={quote(v, safe='')}" for k, v in text.items()).encode(), content_type
    properties = ops.resolve(operation.document, schema).get("properties", {})
    parts = []
    for key, value in text.items():
        member = ops.resolve(operation.document, properties.get(key, {}))
        if member.get("format") == "binary" or "contentMediaType" in member or value.startswith(("(", "<")):
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"; filename="{key}.bin"\r\n'
                         f"Content-Type: application/octet-stream\r\n\r\n".encode() + PLACEHOLDER_BYTES + b"\r\n")
        else:
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n{value}\r\n'.encode())
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"
