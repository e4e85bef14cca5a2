"""The machine descriptions of a sweep: the base description with each point's fields.

Pure: a point is a dict of dotted fields, a machine is its JSON text. A description that
does not validate is still a point — the sweep records why it cannot run.
"""

from __future__ import annotations

import copy
import itertools
import json
import random

from qdialect.npu.machine import MachineError, parse_machine, read_machine
from qdialect.sweep.spec import SweepError, SweepSpec

ROW_FOLLOWERS = {"input": 1, "weight": 1, "output": 1, "accumulator": 4}
"""Buffers whose row width is the MAC array's columns times this (`machine.parse_machine`)."""


def grid_points(spec: SweepSpec) -> list[dict[str, int]]:
    """Every combination of the grid's values (in the grid's order), or `samples` of them
    drawn without replacement."""
    keys = list(spec.grid)
    combos = [dict(zip(keys, values, strict=True))
              for values in itertools.product(*(spec.grid[k] for k in keys))]  # fmt: skip
    if spec.samples is not None and spec.samples < len(combos):
        chosen = sorted(random.Random(spec.seed).sample(range(len(combos)), spec.samples))
        combos = [combos[i] for i in chosen]
    return combos


def _set(data: dict, path: str, value: int) -> None:
    node = data
    keys = path.split(".")
    for key in keys[:-1]:
        child = node.get(key)
        if not isinstance(child, dict):
            raise SweepError(f"grid field '{path}': the base machine has no '{key}' object")
        node = child
    if keys[-1] not in node:
        raise SweepError(f"grid field '{path}' is not a field of the base machine")
    node[keys[-1]] = value


def machine_text(base: dict, point: dict[str, int]) -> str:
    """The description of `point`: the base with its fields set (buffer rows following
    the array's columns unless set), named after the point, as canonical JSON."""
    data = copy.deepcopy(base)
    fields: dict[str, int] = {}
    for key, value in point.items():
        for path in key.split("+"):  # tied fields take one value
            fields[path] = value
    for path, value in fields.items():
        _set(data, path, value)
    cols = fields.get("mac_array.cols")
    if cols is not None:
        for name, factor in ROW_FOLLOWERS.items():
            if f"buffers.{name}.row_bytes" not in fields:
                data["buffers"][name]["row_bytes"] = factor * cols
    data["name"] = f"{base.get('name', 'machine')}:" + ",".join(
        f"{k}={v}" for k, v in point.items()
    )
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def base_description(spec: SweepSpec) -> dict:
    """The base machine's JSON object."""
    try:
        return json.loads(read_machine(spec.machine).source)
    except MachineError as err:
        raise SweepError(f"base machine: {err}") from None


def machines(spec: SweepSpec) -> list[tuple[dict[str, int], str]]:
    """(point, description text) for every point of the sweep."""
    base = base_description(spec)
    return [(p, machine_text(base, p)) for p in grid_points(spec)]


def area(text: str, spec: SweepSpec) -> float | None:
    """The area proxy of a description (`mac` per MAC + `buffer_byte` per buffer byte), or
    None when it does not validate."""
    try:
        m = parse_machine(text)
    except MachineError:
        return None
    buffer_bytes = sum(b.bytes for b in m.buffers.values())
    return spec.area_mac * m.mac_rows * m.mac_cols + spec.area_buffer_byte * buffer_bytes
