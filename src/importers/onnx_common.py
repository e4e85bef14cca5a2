"""Names the ONNX importer's modules share: the error, storage ranges, limits."""

from __future__ import annotations

import numpy as np

MAX_ELEMENTS = 1 << 28  # a tensor larger than this is refused (bounded memory)
RANGE = {"i8": (-128, 127), "ui8": (0, 255)}  # the 8-bit storage types and their ranges
EIGHT_BIT = {np.dtype(np.int8): "i8", np.dtype(np.uint8): "ui8"}  # numpy dtype -> storage


class ONNXImportError(ValueError):
    """A model this importer cannot read or does not support; the message says which part."""
