"""Compile real-size networks from a quantized model file to a `.qbundle`, stage by stage.

For each network of the ONNX zoo (`qdialect.models.onnx_zoo`, quantized once by ONNX
Runtime's `quantize_static` and cached on disk; ONNX Runtime's time is not counted) or
each `.onnx`/`.tflite` file given, this prints the wall-clock seconds of every stage of
`qimport --target tosa` → `qopt -p 'canonicalize,npu-partition' -t bundle`:

  import       the model file to integer TOSA (`import_onnx` / `import_tflite`)
  legalize     `canonicalize` (transpose pairs, rescale folds)
  partition    `npu-partition` (it runs stages 1-2 of the lowering on candidate regions)
  layers       `tosa-to-npu` stage 1 on every NPU region (summed)
  plan         stage 2: buffers, DRAM, constant sections
  code         stage 3: the instruction records
  assemble     stage 4: the `npu.program` ops
  package      binaries and the host module's text

and the total against the goal of 60 s for a ResNet-50-size network on this machine
(2 cores; one is used). Printing the bundle to disk and reading it back are not counted;
running it is `qrt`'s business (`bench_npu_sim.py` measures the simulator).

Per layer (`--layers N` prints the N slowest, and every model's slowest is printed):
the seconds `tosa-to-npu` spends on that layer alone — packing its constants (plan),
emitting and assembling its instructions — against the goal of 1 s a layer on the
default machine. Forming the layers (stage 1) and the rest of the plan (residency,
addresses) work on the whole function at once; their time is in the table above, not
in any layer's.

    python bench/bench_compile.py                    # ResNet-50 and MobileNetV2
    python bench/bench_compile.py --models resnet50 squeezenet1_1
    python bench/bench_compile.py model.onnx other.tflite --layers 10
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

GOAL_SECONDS = 60.0
LAYER_GOAL_SECONDS = 1.0
STAGES = ("import", "legalize", "partition", "layers", "plan", "code", "assemble", "package")


def compile_stages(
    data: bytes, kind: str, layers: list[tuple[str, dict, float]] | None = None
) -> tuple[dict[str, float], int]:
    """(seconds per stage, NPU regions) of one model file's bytes ('onnx' or 'tflite');
    with `layers`, each NPU layer's (region, layer record, seconds) is appended to it."""
    from xdsl.transforms.canonicalize import CanonicalizePass

    from qdialect.context import make_context
    from qdialect.runtime.bundle import build_bundle
    from qdialect.transforms.npu_partition import NpuPartition

    times: dict[str, float] = {}
    start = time.perf_counter()
    if kind == "onnx":
        from qdialect.importers.onnx_import import import_onnx

        module = import_onnx(data, "tosa")
    else:
        from qdialect.importers.tflite import import_tflite

        module = import_tflite(data)
    times["import"] = time.perf_counter() - start
    ctx = make_context()
    start = time.perf_counter()
    CanonicalizePass().apply(ctx, module)
    times["legalize"] = time.perf_counter() - start
    start = time.perf_counter()
    NpuPartition().apply(ctx, module)
    times["partition"] = time.perf_counter() - start
    bundle = build_bundle(module, timings=times, layer_seconds=layers)
    return times, len(bundle.regions)


def main() -> None:
    from qdialect.models import onnx_zoo

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="*", type=Path, help=".onnx or .tflite model files")
    parser.add_argument("--models", nargs="*", default=None,
                        help="zoo networks (default: resnet50 mobilenet_v2 without files)")  # fmt: skip
    parser.add_argument("--cache", type=Path, default=Path(".bench-cache"))
    parser.add_argument("--layers", type=int, default=0, help="slowest layers to print")
    args = parser.parse_args()
    args.cache.mkdir(exist_ok=True)
    jobs: list[tuple[str, bytes, str]] = []
    names = args.models if args.models is not None else ([] if args.files else
                                                          ["resnet50", "mobilenet_v2"])  # fmt: skip
    for name in names:
        jobs.append((name, onnx_zoo.quantized(name, args.cache), "onnx"))
    for path in args.files:
        jobs.append((path.name, path.read_bytes(), path.suffix.lstrip(".")))
    print(f"{'model':<22}" + "".join(f"{s:>10}" for s in STAGES) + f"{'total':>10}{'regions':>9}")
    slowest: dict[str, list[tuple[str, dict, float]]] = {}
    for label, data, kind in jobs:
        layers: list[tuple[str, dict, float]] = []
        times, regions = compile_stages(data, kind, layers)
        total = sum(times.values())
        print(f"{label:<22}" + "".join(f"{times.get(s, 0.0):>10.2f}" for s in STAGES)
              + f"{total:>10.2f}{regions:>9}")  # fmt: skip
        slowest[label] = sorted(layers, key=lambda t: -t[2])
    print(f"\nseconds, wall clock; goal: a ResNet-50-size network in <= {GOAL_SECONDS:.0f} s")
    print(f"\nper layer (constants, code, assembly; goal <= {LAYER_GOAL_SECONDS:.0f} s a layer):")
    for label, layers in slowest.items():
        over = sum(s > LAYER_GOAL_SECONDS for *_, s in layers)
        mean = sum(s for *_, s in layers) / max(len(layers), 1)
        print(f"{label}: {len(layers)} layers, mean {mean:.3f} s, slowest "
              f"{layers[0][2] if layers else 0.0:.3f} s, {over} over the goal")  # fmt: skip
        for region, record, seconds in layers[: max(args.layers, 1)]:
            start, end = record["code"]
            name = record["name"] or f"(unnamed, instructions {start}..)"
            shape = "x".join(map(str, record["shape"]))
            print(f"    {seconds:7.3f} s  {region:<10} {shape:<14} {record['macs']:>13,} MACs  "
                  f"{end - start:>6} instructions  {name[-50:]}")  # fmt: skip


if __name__ == "__main__":
    main()
