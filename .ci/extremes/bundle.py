"""The bundle case: the demo project's own export, imported again with one cell, the clock or a
project field replaced by an extreme value. The platforms' tables are only known from a live
export (the control plane's document names no platform), so this case builds its examples from one.

The demo project is moved out of the way first (exported, deleted, imported as `extremes-bundle`),
because a bundle's keys are global: each mutated bundle then replaces that project, which a
bundle's own keys never conflict with.
"""
import copy

PROJECT = "extremes-bundle"


def prepare(server):
    """Moves the demo project to PROJECT; returns the base bundles (clock real, offset, frozen)."""
    status, _, _ = server.request("GET", "/__admin/projects/demo")
    if status == 404:  # moved already (a restart on the same database): export the moved one
        return base_bundles(server.json("GET", f"/__admin/projects/{PROJECT}/export"))
    bundle = server.json("GET", "/__admin/projects/demo/export")
    server.request("DELETE", "/__admin/projects/demo")
    server.request("DELETE", f"/__admin/projects/{PROJECT}")
    bundle["project"].pop("id", None)
    server.json("POST", f"/__admin/projects/import?id={PROJECT}", bundle)
    return base_bundles(bundle)


def base_bundles(bundle):
    """The bundle as exported, and two without tables whose clock is offset and frozen."""
    offset = copy.deepcopy(bundle)
    offset["clock"] = {"mode": "offset", "offsetSeconds": 3600}
    frozen = copy.deepcopy(bundle)
    frozen["clock"] = {"mode": "frozen", "frozenAt": "2026-03-01T10:00:00.000Z"}
    frozen["tables"] = {}
    offset["tables"] = {}
    return [bundle, offset, frozen]


def leaves(bundle, kind_of, long):
    """(path, kind) of every numeric or date cell (the first row of each table unless `long`), the
    clock's and the project's numbers and dates."""
    found = []
    for name, table in sorted(bundle.get("tables", {}).items()):
        columns = table.get("columns", [])
        for row_index, row in enumerate(table.get("rows", [])[: None if long else 1]):
            others = 0
            for column_index, cell in enumerate(row):
                kind = kind_of(cell)
                if not kind:
                    continue
                # Without --long: every time column, and one other number a table (each import
                # writes the whole project, so every cell costs fifteen of them).
                timed = columns[column_index].endswith(("_at", "_time", "_ms")) if column_index < len(columns) else False
                if not long and not timed:
                    others += 1
                    if others > 1:
                        continue
                found.append((("tables", name, "rows", row_index, column_index), kind))
    for member in ("offsetSeconds", "frozenAt"):
        if member in bundle.get("clock", {}):
            found.append((("clock", member), kind_of(bundle["clock"][member])))
    for member in ("seed", "createdAt"):
        if member in bundle.get("project", {}):
            found.append((("project", member), kind_of(bundle["project"][member])))
    return [(path, kind) for path, kind in found if kind]
