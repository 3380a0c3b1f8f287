"""Reads a served OpenAPI document into operations the fuzzer can send: the base request built
from the document's examples, and every leaf (body member, query, header or path parameter) that
holds a number or a date and so gets the extreme values.
"""
import json
import re
import uuid
from urllib.parse import quote, urlsplit

METHODS = ("get", "post", "put", "patch", "delete")
DATE_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
SPACED = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}")
DIGITS = re.compile(r"^-?\d+$")
# Long polls and waits in the examples: the base request must not spend seconds waiting.
SHORT_WAITS = {"timeoutMs": 20, "waitMs": 20}


class Raw:
    """Text that goes into the JSON as it is (a number token such as `1e400`)."""

    def __init__(self, text):
        self.text = text


def dump(value):
    """JSON text of `value`, with `Raw` leaves written verbatim."""
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(k) + ":" + dump(v) for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(dump(v) for v in value) + "]"
    return json.dumps(value)


def resolve(document, schema, depth=0):
    """The schema with `$ref`s followed and `allOf` merged (first branch of `oneOf`/`anyOf` objects)."""
    if not isinstance(schema, dict) or depth > 20:
        return {}
    if "$ref" in schema:
        target = document
        for part in schema["$ref"].lstrip("#/").split("/"):
            target = target.get(part, {})
        return resolve(document, target, depth + 1)
    if "allOf" in schema:
        merged = {"type": "object", "properties": {}}
        for part in schema["allOf"]:
            part = resolve(document, part, depth + 1)
            merged["properties"].update(part.get("properties", {}))
        return merged
    return schema


def leaf_kind(document, schema, value):
    """`number`, `numstring`, `date-time`, `date`, `spaced` or None for a leaf's schema and example value."""
    schema = resolve(document, schema)
    types = schema.get("type")
    types = types if isinstance(types, list) else [types]
    for branch in schema.get("oneOf", []) + schema.get("anyOf", []):
        branch_type = resolve(document, branch).get("type")
        types += branch_type if isinstance(branch_type, list) else [branch_type]
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)) or (value is None and ("integer" in types or "number" in types)):
        return "number"
    if isinstance(value, str) or value is None:
        text = value or ""
        form = schema.get("format")
        if form == "date-time" or DATE_TIME.match(text):
            return "date-time"
        if form == "date" or DATE.match(text):
            return "date"
        if SPACED.match(text):
            return "spaced"
        if DIGITS.match(text) or ("integer" in types or "number" in types):
            return "numstring"
    return None


def leaves(document, schema, value, path=()):
    """Every (path, kind) below `value`, plus schema members the example leaves out."""
    schema = resolve(document, schema)
    found = []
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        for key, member in value.items():
            found += leaves(document, properties.get(key, schema.get("additionalProperties", {})), member, path + (key,))
        for key, member_schema in properties.items():
            if key not in value:
                kind = leaf_kind(document, member_schema, None)
                if kind and kind != "numstring":
                    found.append((path + (key,), kind))
    elif isinstance(value, list):
        for index, element in enumerate(value):
            found += leaves(document, schema.get("items", {}), element, path + (index,))
    else:
        kind = leaf_kind(document, schema, value)
        if kind:
            found.append((path, kind))
    return found


def enum_alternatives(document, schema, example):
    """The example with each other value of a top-level enumerated member (so `mode: frozen` of a
    clock example also reaches `offsetSeconds` as `mode: offset`), for examples with number leaves."""
    if not isinstance(example, dict) or not any(kind == "number" for _, kind in leaves(document, schema, example)):
        return []
    properties = resolve(document, schema).get("properties", {})
    found = []
    for key, value in example.items():
        for other in resolve(document, properties.get(key, {})).get("enum", []):
            if other != value and isinstance(other, str):
                found.append({**example, key: other})
    return found


def replaced(value, path, new):
    """A copy of `value` with the leaf at `path` set to `new` (created when missing)."""
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        copy = dict(value)
        copy[head] = replaced(value.get(head), rest, new)
        return copy
    copy = list(value)
    copy[head] = replaced(value[head], rest, new)
    return copy


def shortened(value):
    """The example with long-poll timeouts cut (see SHORT_WAITS)."""
    if isinstance(value, dict):
        return {k: (SHORT_WAITS[k] if k in SHORT_WAITS and isinstance(v, int) else shortened(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [shortened(v) for v in value]
    return value


def unique_strings(value):
    """E-mail addresses made unique, so a create is not refused as a duplicate before its numbers are read."""
    if isinstance(value, dict):
        return {k: unique_strings(v) for k, v in value.items()}
    if isinstance(value, list):
        return [unique_strings(v) for v in value]
    if isinstance(value, str) and re.match(r"^[^@\s]+@[^@\s]+\.[a-z]+$", value):
        return f"x{uuid.uuid4().hex[:12]}@example.com"
    return value


class Operation:
    """One operation of one document: where it goes, its parameters, bodies and leaves."""

    def __init__(self, document, name, path, method, operation, path_item):
        self.document, self.name, self.path, self.method = document, name, path, method.upper()
        self.id = operation.get("operationId", f"{method} {path}")
        servers = path_item.get("servers") or operation.get("servers")
        root_path = urlsplit(document["servers"][0]["url"]).path.rstrip("/")
        self.prefix = "" if servers else root_path
        self.parameters = [p for p in path_item.get("parameters", []) + operation.get("parameters", [])]
        self.security = operation.get("security", document.get("security")) or []
        self.responses = operation.get("responses", {})
        self.bodies = []  # (content type, example, schema)
        for content_type, media in (operation.get("requestBody") or {}).get("content", {}).items():
            examples = [media["example"]] if "example" in media else []
            examples += [entry.get("value") for entry in media.get("examples", {}).values() if "value" in entry]
            for example in examples or [None]:
                self.bodies.append((content_type, example, media.get("schema", {})))
                self.bodies += [(content_type, other, media.get("schema", {})) for other in enum_alternatives(document, media.get("schema", {}), example)]
        self.is_control_plane = path.startswith("/__admin")
        self.is_read = self.method == "GET"

    def owns(self, parameter, values):
        """Whether the run supplies this path parameter (the project id of `/__admin/projects/{id}`)."""
        return parameter["in"] == "path" and parameter["name"] in values and self.path.startswith("/__admin/projects/{" + parameter["name"] + "}")

    def parameter_value(self, parameter, values):
        """The base value of a parameter: the run's own (project ids), the example, or a schema default."""
        if self.owns(parameter, values):
            return values[parameter["name"]]
        schema = resolve(self.document, parameter.get("schema", {}))
        for source in (parameter, schema):
            if "example" in source:
                return str(source["example"]).lower() if isinstance(source["example"], bool) else str(source["example"])
        if "default" in schema:
            return str(schema["default"])
        if "enum" in schema:
            return str(schema["enum"][0])
        if parameter.get("required") or parameter["in"] == "path":
            return "1" if schema.get("type") in ("integer", "number") else "x"
        return None

    def parameter_leaves(self, values):
        """(parameter, kind) for every numeric or date parameter."""
        found = []
        for parameter in self.parameters:
            base = self.parameter_value(parameter, values)
            if self.owns(parameter, values):
                continue
            kind = leaf_kind(self.document, parameter.get("schema", {}), base)
            if kind:
                found.append((parameter, kind))
        return found

    def body_leaves(self, content_type, example, schema):
        if content_type == "application/octet-stream":
            return []
        return leaves(self.document, schema, example)


def operations(document, name):
    """Every operation of the document, in path order."""
    found = []
    for path, item in sorted(document.get("paths", {}).items()):
        for method in METHODS:
            if method in item:
                found.append(Operation(document, name, path, method, item[method], item))
    return found


def url_path(operation, values, override=None):
    """The request target with path parameters filled (`override` = (name, raw text) for one of them)."""
    path = operation.path
    for parameter in operation.parameters:
        if parameter["in"] != "path":
            continue
        value = operation.parameter_value(parameter, values)
        if override and override[0] is parameter:
            value = override[1]
        path = path.replace("{" + parameter["name"] + "}", quote(value, safe=""))
    return operation.prefix + path
