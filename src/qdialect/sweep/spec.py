"""The sweep file: which machines (a base description and fields to vary), which models.

    {
      "machine": "default",
      "grid": {"mac_array.rows+mac_array.cols": [8, 16],
               "buffers.input.bytes": [65536, 262144], "dram.bus_bytes": [8, 16]},
      "samples": 6, "seed": 0,
      "models": ["model.tflite", "block.mlir", "onnx_zoo:squeezenet1_1"],
      "inputs_seed": 0,
      "area": {"mac": 1, "buffer_byte": 1}
    }

* `machine`: the base description, a shipped name or a JSON file (relative to the
  sweep file);
* `grid`: dotted fields of the description and the values each takes; the points are
  every combination (fields not named keep the base's). Fields joined by `+` take one
  value together (`"mac_array.rows+mac_array.cols": [8, 16, 32]`: square arrays). When a
  point sets
  `mac_array.cols`, the buffer row widths follow it (input, weight and output rows hold
  `cols` bytes, accumulator rows `4 * cols`) unless the grid sets them too;
* `samples` (optional): that many combinations drawn at random (`seed`), without
  replacement — for grids too large to run whole;
* `models`: MLIR (quantized StableHLO or TOSA), ONNX or TFLite files relative to the
  sweep file, or `onnx_zoo:NAME` / `keras_zoo:NAME` for the project's model zoo (built
  by ONNX Runtime / TFLiteConverter, cached beside the results);
* `inputs_seed`: the seed of the random input each point runs and checks;
* `area`: the weights of the area proxy, `mac` per MAC of the array and `buffer_byte` per
  byte of on-chip buffer (1 and 1 by default: MACs + buffer bytes).

Anything else is an error naming the key.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

KEYS = {"machine", "grid", "samples", "seed", "models", "inputs_seed", "area", "name"}
ZOOS = ("onnx_zoo", "keras_zoo")


class SweepError(ValueError):
    """An invalid sweep file or option (the message names the key)."""


@dataclass(frozen=True)
class SweepSpec:
    machine: str
    grid: dict[str, list[int]]
    models: list[str]  # resolved paths, or zoo references
    samples: int | None = None
    seed: int = 0
    inputs_seed: int = 0
    area_mac: float = 1.0
    area_buffer_byte: float = 1.0
    name: str = "sweep"
    base_dir: Path = field(default_factory=Path.cwd)


def _integers(key: str, values: object) -> list[int]:
    if not isinstance(values, list) or not values:
        raise SweepError(f"grid field '{key}' must list one or more values")
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int):
            raise SweepError(f"grid field '{key}': {v!r} is not an integer")
    if len(set(values)) != len(values):
        raise SweepError(f"grid field '{key}' repeats a value")
    return list(values)


def _model(entry: object, base: Path) -> str:
    if not isinstance(entry, str) or not entry:
        raise SweepError(f"a model must be a path or a zoo name, not {entry!r}")
    zoo, _, name = entry.partition(":")
    if zoo in ZOOS:
        if not name:
            raise SweepError(f"'{entry}': name the {zoo} model")
        return entry
    path = (base / entry).resolve()
    if not path.is_file():
        raise SweepError(f"model '{entry}' not found ({path})")
    return str(path)


def parse_spec(data: object, base_dir: Path) -> SweepSpec:
    """A checked `SweepSpec` from the parsed JSON of a sweep file in `base_dir`."""
    if not isinstance(data, dict):
        raise SweepError("a sweep file is a JSON object")
    unknown = sorted(set(data) - KEYS)
    if unknown:
        raise SweepError(f"unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(KEYS))})")
    machine = data.get("machine", "default")
    if not isinstance(machine, str):
        raise SweepError("'machine' must be a shipped machine's name or a JSON file")
    if (base_dir / machine).is_file():
        machine = str((base_dir / machine).resolve())
    grid = data.get("grid", {})
    if not isinstance(grid, dict):
        raise SweepError("'grid' maps dotted machine fields to lists of values")
    grid = {str(k): _integers(str(k), v) for k, v in grid.items()}
    models = data.get("models")
    if not isinstance(models, list) or not models:
        raise SweepError("'models' must list one or more models")
    resolved = [_model(m, base_dir) for m in models]
    samples = data.get("samples")
    if samples is not None and (
        isinstance(samples, bool) or not isinstance(samples, int) or samples < 1
    ):
        raise SweepError("'samples' must be a positive integer")
    ints = {}
    for key in ("seed", "inputs_seed"):
        v = data.get(key, 0)
        if isinstance(v, bool) or not isinstance(v, int):
            raise SweepError(f"'{key}' must be an integer")
        ints[key] = v
    area = data.get("area", {})
    if not isinstance(area, dict) or set(area) - {"mac", "buffer_byte"}:
        raise SweepError("'area' takes the weights 'mac' and 'buffer_byte'")
    weights = {}
    for key in ("mac", "buffer_byte"):
        v = area.get(key, 1)
        if isinstance(v, bool) or not isinstance(v, int | float) or v < 0:
            raise SweepError(f"'area.{key}' must be a non-negative number")
        weights[key] = float(v)
    name = data.get("name", "sweep")
    if not isinstance(name, str):
        raise SweepError("'name' must be a string")
    return SweepSpec(machine, grid, resolved, samples, ints["seed"], ints["inputs_seed"],
                     weights["mac"], weights["buffer_byte"], name, base_dir)  # fmt: skip


def load_spec(path: str | Path) -> SweepSpec:
    """The sweep file at `path`, checked."""
    file = Path(path)
    try:
        data = json.loads(file.read_text())
    except OSError as err:
        raise SweepError(f"cannot read '{path}': {err.strerror}") from None
    except (json.JSONDecodeError, RecursionError, ValueError) as err:
        raise SweepError(f"'{path}' is not JSON: {err}") from None
    return parse_spec(data, file.resolve().parent)
