"""Import and run real-size quantized ONNX networks, side by side with ONNX Runtime.

For each network of the zoo (qdialect.models.onnx_zoo) and each quantization variant
asked for, quantized by ONNX Runtime's quantize_static (cached on disk), this prints:

* import: `import_onnx` wall time in a fresh process, that process's peak resident
  memory (interpreter, numpy, onnx and xDSL included), time per ONNX node, and the size
  of the printed module (`qimport`'s output, with locations);
* ONNX Runtime's session-creation time for the same model (int8 QDQ groups fused,
  one thread) — the reference the import is compared with;
* run: one inference by qdialect's reference interpreter (`qrun`'s engine) and by
  ONNX Runtime on one thread, their ratio, and whether the outputs are bit-identical.

Figures are wall-clock on this machine; the interpreter is a reference, not a runtime.

    python bench/bench_import.py                       # the default grid
    python bench/bench_import.py --models resnet50 --variants qdq-pc-raw
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import sys
import time
from pathlib import Path

import numpy as np

VARIANTS = ["qdq-pc-raw", "qdq-pc-pre", "qop-pc-raw", "qop-pt-pre"]
MODELS = ["resnet50", "mobilenet_v2", "squeezenet1_1", "densenet121_block", "inception_block",
          "shufflenet_block", "vgg16", "alexnet", "gelu_mlp"]  # fmt: skip


def quantized(name: str, variant: str, cache: Path) -> bytes:
    from qdialect.models import onnx_zoo

    path = cache / f"{name}-{variant}.onnx"
    if not path.exists():
        fmt, granularity, pre = variant.split("-")
        model = onnx_zoo.quantize(onnx_zoo.ZOO[name](), qdq=fmt == "qdq",
                                  per_channel=granularity == "pc", preprocess=pre == "pre")  # fmt: skip
        path.write_bytes(model)
    return path.read_bytes()


def _import_in_fresh_process(path: str, queue) -> None:
    """Child: import, print, and report (seconds, nodes, text bytes, peak RSS in MB)."""
    import onnx

    from qdialect.importers.onnx_import import import_onnx
    from qdialect.ir.printer import module_text

    data = Path(path).read_bytes()
    start = time.perf_counter()
    module = import_onnx(data)
    seconds = time.perf_counter() - start
    text = module_text(module, debuginfo=True)
    nodes = len(onnx.load_from_string(data).graph.node)
    queue.put((seconds, nodes, len(text), _peak_mb()))


def _peak_mb() -> float:
    """This process's peak resident memory: Linux's VmHWM (ru_maxrss would carry the
    parent's peak across the spawn's exec), else ru_maxrss."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure_import(path: Path) -> tuple[float, int, int, float]:
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    child = context.Process(target=_import_in_fresh_process, args=(str(path), queue))
    child.start()
    result = queue.get()
    child.join()
    return result


def ort_session(data: bytes):
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.log_severity_level = 3
    options.add_session_config_entry("session.qdqisint8allowed", "1")
    start = time.perf_counter()
    session = ort.InferenceSession(data, options, providers=["CPUExecutionProvider"])
    return session, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="+", default=MODELS)
    parser.add_argument("--variants", nargs="+", default=VARIANTS)
    parser.add_argument("--cache", default="/tmp/qdialect-zoo", help="quantized models go here")
    args = parser.parse_args()
    from qdialect.importers.onnx_import import import_onnx
    from qdialect.interpreter import Interpreter
    from qdialect.models import onnx_zoo

    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    print(f"{'model':<32} {'import s':>8} {'peak MB':>8} {'ms/node':>8} {'text MB':>8} "
          f"{'ORT init s':>10} {'qrun s':>7} {'ORT 1t s':>8} {'ratio':>6}  outputs")  # fmt: skip
    failures = 0
    for name in args.models:
        for variant in args.variants:
            data = quantized(name, variant, cache)
            seconds, nodes, size, peak = measure_import(cache / f"{name}-{variant}.onnx")
            session, init = ort_session(data)
            feeds = onnx_zoo.random_inputs(data, 0)
            session.run(None, feeds)  # warm
            start = time.perf_counter()
            want = session.run(None, feeds)[0]
            ort_run = time.perf_counter() - start
            interpreter = Interpreter(import_onnx(data))
            start = time.perf_counter()
            got = interpreter.call("main", list(feeds.values()))[0]
            ours = time.perf_counter() - start
            same = np.array_equal(got, want)
            failures += not same
            print(f"{name + '-' + variant:<32} {seconds:8.2f} {peak:8.0f} "
                  f"{1000 * seconds / nodes:8.2f} {size / 1e6:8.1f} {init:10.3f} {ours:7.2f} "
                  f"{ort_run:8.3f} {ours / ort_run:6.1f}  "
                  f"{'bit-identical' if same else 'DIFFER'}", flush=True)  # fmt: skip
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
