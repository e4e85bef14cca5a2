"""Calibration against ONNX Runtime's calibrators, in the same run: time, peak memory, and
how far apart the ranges are.

For each method — ours (`qdialect.calibration`: one pass records everything; the
range of each method is then read from the record) and ONNX Runtime's
`create_calibrator` with MinMax, Percentile and Entropy — a fresh process calibrates a
float zoo network over the same seeded batches (N(0, 1) images, the statistics of
ImageNet-normalized inputs) and reports its wall time and peak resident memory
(`ru_maxrss`, which counts ONNX Runtime's native allocations too). Ratios are ours over
ONNX Runtime's. Then, per method, the median and worst relative difference between our
range and ONNX Runtime's over the tensors both calibrate (matched by ONNX tensor name).

What the figures do not cover: our calibration runs the reference interpreter (NumPy),
ONNX Runtime its optimized kernels, so time mostly compares the executors; our one pass
serves all five methods while each ONNX Runtime calibrator is a separate run. ONNX
Runtime's percentile and entropy use its own histogram sizes (2048 bins, 128
quantized levels) — the range differences are those of two implementations of the
same definitions, not errors. Ranges are compared in ONNX Runtime's conventions
(percentile: (100 - p) / 2 cut from each side, clamped to the extremes; entropy: the
symmetric threshold's magnitude).

    python bench/bench_calibration.py                       # MobileNetV2, 8 batches
    python bench/bench_calibration.py --model resnet50 --batches 4
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ORT_METHODS = {"minmax": "MinMax", "percentile": "Percentile", "entropy": "Entropy"}


def batches(model: bytes, n: int) -> list[dict[str, np.ndarray]]:
    from qdialect.models import onnx_zoo

    shapes = onnx_zoo.input_shapes(model)
    rng = np.random.default_rng(0)
    return [
        {k: rng.normal(0, 1, s).astype(np.float32) for k, s in shapes.items()} for _ in range(n)
    ]


def run_ours(model: bytes, n: int) -> dict:
    from qdialect.calibration.calibrate import calibrate
    from qdialect.importers.onnx_import import import_onnx

    module = import_onnx(model, "stablehlo")
    start = time.perf_counter()
    cal = calibrate(module, (list(b.values()) for b in batches(model, n)))
    seconds = time.perf_counter() - start
    ranges: dict[str, dict[str, list[float]]] = {}
    for key, stats in cal.stats.items():
        name = cal.info[key]["name"]
        if name:  # the last value bearing an ONNX tensor's name is that tensor
            # in ONNX Runtime's conventions: its percentile (default, not symmetric) cuts
            # (100 - p) / 2 percent from each side and clamps to the extremes; its
            # entropy threshold is symmetric, compared by magnitude below
            lo, hi = stats.range("percentile", percentile=100 - (100 - 99.999) / 2,
                                 symmetric=False)  # fmt: skip
            ranges[name] = {
                "minmax": list(stats.range("minmax", symmetric=False)),
                "percentile": [max(lo, stats.lo), min(hi, stats.hi)],
                "entropy": list(stats.range("entropy")),
            }
    return {"seconds": seconds, "ranges": ranges}


def run_ort(model: bytes, n: int, method: str) -> dict:
    from onnxruntime.quantization.calibrate import (
        CalibrationDataReader,
        CalibrationMethod,
        create_calibrator,
    )

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self.items = iter(batches(model, n))

        def get_next(self):
            return next(self.items, None)

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "model.onnx"
        path.write_bytes(model)
        start = time.perf_counter()
        calibrator = create_calibrator(
            path,
            augmented_model_path=str(Path(tmp) / "augmented.onnx"),
            calibrate_method=getattr(CalibrationMethod, ORT_METHODS[method]),
        )
        calibrator.collect_data(Reader())
        table = calibrator.compute_data()
        seconds = time.perf_counter() - start
    ranges = {}
    for name, value in table.data.items():
        lo, hi = value.range_value
        ranges[name] = [float(np.asarray(lo).reshape(-1)[0]), float(np.asarray(hi).reshape(-1)[0])]
    return {"seconds": seconds, "ranges": ranges}


def child(args: argparse.Namespace) -> None:
    from qdialect.models import onnx_zoo

    model = getattr(onnx_zoo, args.model)(0)
    out = (
        run_ours(model, args.batches)
        if args.one == "ours"
        else run_ort(model, args.batches, args.one)
    )
    out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(out))


def in_fresh_process(args: argparse.Namespace, which: str) -> dict:
    cmd = [sys.executable, __file__, "--model", args.model, "--batches", str(args.batches),
           "--one", which]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--model", default="mobilenet_v2")
    p.add_argument("--batches", type=int, default=8)
    p.add_argument("--one", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.one:
        child(args)
        return
    ours = in_fresh_process(args, "ours")
    print(f"{args.model}, {args.batches} batches; ours: {ours['seconds']:.1f} s, "
          f"{ours['peak_mb']:.0f} MB peak (one pass for every method)")  # fmt: skip
    print(f"{'method':12} {'ORT s':>8} {'ours/ORT time':>14} {'ORT MB':>8} {'ours/ORT mem':>13} "
          f"{'tensors':>8} {'range diff median':>18} {'worst':>8}")  # fmt: skip
    for method in ORT_METHODS:
        ort = in_fresh_process(args, method)
        diffs = []
        for name, (lo, hi) in ort["ranges"].items():
            mine = ours["ranges"].get(name, {}).get(method)
            if mine is None:
                continue
            width = max(abs(lo), abs(hi), 1e-12)
            if method == "entropy":  # thresholds: magnitudes
                diffs.append(abs(max(-mine[0], mine[1]) - width) / width)
            else:
                diffs.append(max(abs(mine[0] - lo), abs(mine[1] - hi)) / width)
        d = np.array(diffs) if diffs else np.array([np.nan])
        print(f"{method:12} {ort['seconds']:8.1f} {ours['seconds'] / ort['seconds']:14.2f} "
              f"{ort['peak_mb']:8.0f} {ours['peak_mb'] / ort['peak_mb']:13.2f} {len(diffs):8d} "
              f"{np.median(d):18.3%} {np.max(d):8.1%}")  # fmt: skip


if __name__ == "__main__":
    main()
