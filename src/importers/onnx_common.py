"""Names the ONNX importer's modules share: the error, a value, storage ranges, limits."""

from __future__ import annotations

from dataclasses import dataclass

MAX_ELEMENTS = 1 << 28  # a tensor larger than this is refused (bounded memory)
RANGE = {"i8": (-128, 127), "ui8": (0, 255)}  # the 8-bit storage types and their ranges


class ONNXImportError(ValueError):
    """A model this importer cannot read or does not support; the message says which part."""


@dataclass
class Value:
    name: str  # SSA name
    shape: tuple[int, ...]
    elem: str  # "f32", "i8", "ui8", "i32", ...
