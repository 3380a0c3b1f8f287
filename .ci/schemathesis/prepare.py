"""Creates schemathesis's throwaway projects through the control plane and writes one
schemathesis.toml per served OpenAPI document.

Each document gets two fresh projects: one whose credentials the SDK operations use, and one that
the control-plane operations (`/__admin/projects/{id}/…`) act on. Fuzzing settings, revoking keys,
expiring tokens or resetting data on the second can never take away the credentials the first
one's operations need. The control plane's own document gets a project of its own as well.

Usage: prepare.py BASE_URL OUTPUT_DIR; prints one line per document: its name, its URL, its
config file and the operationIds to run last (comma-separated, `-` for none).
"""
import json
import os
import sys
import urllib.request

base, out = sys.argv[1].rstrip("/"), sys.argv[2]
hooks = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hooks.py")


def call(method, path, body=None, headers=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json", **(headers or {})})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"null")


def project(name):
    return call("POST", "/__admin/projects", {"name": name})


def toml_string(value):
    return json.dumps(value)  # a JSON string is a valid TOML basic string


def write(name, admin_project, schemes, last=()):
    lines = [
        "# Written by .ci/schemathesis/prepare.py for one run; not checked in.",
        f"hooks = {toml_string(hooks)}",
        "[[operations]]",
        "# The control-plane operations act on a project of their own (see prepare.py).",
        'include-path-regex = "^/__admin/projects/\\\\{id\\\\}"',
        f"parameters = {{ id = {toml_string(admin_project)} }}",
    ]
    for scheme, values in schemes.items():
        lines.append(f"[auth.openapi.{scheme}]")
        lines += [f"{key} = {toml_string(value)}" for key, value in values.items()]
    path = f"{out}/{name}.toml"
    with open(path, "w") as file:
        file.write("\n".join(lines) + "\n")
    document = f"{base}/__admin/openapi.json" if name == "openapi" else f"{base}/__admin/openapi/{name}.json"
    print(name, document, path, ",".join(last) or "-")


# WarpLink: the SDK key (API keys are refused on attribution, which the document says).
sdk = project("schemathesis-warplink")["credentials"]["warplink"]
write("warplink", project("schemathesis-warplink-admin")["id"], {"bearerKey": {"bearer": sdk["sdkKey"]}})

# Asleep: the API key, and an access token minted from the app credentials.
asleep = project("schemathesis-asleep")["credentials"]["asleep"]
token = call("POST", "/asleep/customer/v1/app/token", {"app_id": asleep["appId"], "app_secret": asleep["appSecret"]})
write("asleep", project("schemathesis-asleep-admin")["id"],
      {"apiKey": {"api_key": asleep["apiKey"]}, "accessToken": {"bearer": token["result"]["access_token"]}})

# WarrantyLife: the developer key and a signed-in user (the control plane creates it with a token).
warrantylife = project("schemathesis-warrantylife")
key = warrantylife["credentials"]["warrantylife"]["developerKey"]
user = call("POST", f"/__admin/projects/{warrantylife['id']}/warrantylife/users",
            {"email": "schemathesis@example.com", "firstName": "Schema", "password": "secret-pass"})
# Signing out (`revokeToken`) ends the user's token for every later operation, so it runs last.
write("warrantylife", project("schemathesis-warrantylife-admin")["id"],
      {"developerKey": {"api_key": key}, "userBasic": {"username": user["identity"], "password": user["token"]},
       "userBearer": {"bearer": user["token"]}}, last=["revokeToken"])

# Telematics: an access token for a user of the project.
telematics = project("schemathesis-telematics")
pair = call("POST", f"/__admin/projects/{telematics['id']}/telematics/tokens", {"userId": 1001, "userName": "Schema"})
# `logout` revokes the access token every other operation uses, so it runs last.
write("telematics", project("schemathesis-telematics-admin")["id"], {"bearer": {"bearer": pair["token"]}}, last=["logout"])

# The control plane has no credentials without an admin token; its project operations get one project.
write("openapi", project("schemathesis-control")["id"], {})
