"""The shipped digits CNN (examples/digits), imported, optimized and calibrated once."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from qdialect.calibration.calibrate import calibrate
from qdialect.calibration.workflow import optimize_float
from qdialect.importers.onnx_import import import_onnx
from qdialect.models import digits

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def digits_float():
    """(float module, calibration, eval inputs) of the digits CNN (NCHW, 8x8 images)."""
    module = import_onnx((ROOT / "examples/digits/digits_cnn.onnx").read_bytes())
    optimize_float(module)
    data = digits.load()
    images = data.calibration(60).astype(np.float32)  # (60, 1, 8, 8)
    cal = calibrate(module, ([images[i : i + 1]] for i in range(48)))
    inputs = [[images[i : i + 1]] for i in range(48, 52)]
    return module, cal, inputs
