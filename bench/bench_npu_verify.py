"""Time to verify one compiled `npu.program`, and what verifying it imports.

Compiles a network (quantized StableHLO -> TOSA -> `tosa-to-npu`), then times
`module.verify()` on the program. Each instruction op checks its accesses
against its program's machine description; the figure "reloading" repeats the
verification with that description re-read from disk for every op (what the
verifier did before descriptions were cached), so the ratio is measured in one
process. It also reports whether verifying a program imports the simulator
(it should not: a verifier needs no simulator).

    python bench/bench_npu_verify.py [--network resnet_block] [--machine default] [--repeat 20]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

from xdsl.transforms.canonicalize import CanonicalizePass

from qdialect.context import make_context
from qdialect.dialects import npu as npu_dialect
from qdialect.dialects.npu import ProgramOp
from qdialect.ir.parser import QParser
from qdialect.lowering.tosa_to_npu import TosaToNpu
from qdialect.models import networks
from qdialect.npu import machine as machine_module
from qdialect.transforms.legalize_to_tosa import LegalizeToTosa


def compiled(network: str, machine: str):
    ctx = make_context()
    module = QParser(ctx, networks.build(network, "bench", seed=0).source).parse_module()
    LegalizeToTosa().apply(ctx, module)
    CanonicalizePass().apply(ctx, module)
    TosaToNpu(machine=machine).apply(ctx, module)
    return module


def median_ms(run: Callable[[], None], repeat: int) -> float:
    run()  # warm up (imports, caches)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def _uncached(name_or_path: str = "default"):
    """Read and validate the description from disk on every call."""
    reader = getattr(machine_module, "read_machine", None)
    if reader is None:  # before descriptions were cached, load_machine read every time
        return machine_module.load_machine(name_or_path)
    return reader(name_or_path)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--network", default="resnet_block", choices=networks.NETWORKS)
    p.add_argument("--machine", default="default")
    p.add_argument("--repeat", type=int, default=20)
    args = p.parse_args()
    module = compiled(args.network, args.machine)
    program = next(op for op in module.walk() if isinstance(op, ProgramOp))
    count = len(list(program.body.block.ops))
    cached = median_ms(module.verify, args.repeat)
    original = npu_dialect.load_machine
    npu_dialect.load_machine = _uncached
    try:
        reloading = median_ms(module.verify, args.repeat)
    finally:
        npu_dialect.load_machine = original
    probe = (
        "import sys\n"
        "from qdialect.context import make_context\n"
        "from qdialect.ir.parser import QParser\n"
        "QParser(make_context(), 'npu.program machine = \"small\" {\\n npu.halt\\n}')"
        ".parse_module().verify()\n"
        "print('qdialect.npu.simulator' in sys.modules)"
    )
    imports = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.strip()
    print(f"program: {args.network} on '{args.machine}', {count} instructions")
    print(f"verify, description loaded once:     {cached:8.1f} ms")
    print(f"verify, description reloaded per op: {reloading:8.1f} ms")
    print(f"ratio:                               {reloading / cached:8.2f}x")
    print(f"verifying a program imports the simulator: {imports}")


if __name__ == "__main__":
    main()
