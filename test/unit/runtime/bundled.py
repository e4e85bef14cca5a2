"""Compile a TOSA module to a `.qbundle` and run it, beside the interpreter on the same
program: what the zoo and importer tests share to check a whole model from its bundle."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.transforms.canonicalize import CanonicalizePass

from qdialect.context import make_context
from qdialect.interpreter import Interpreter
from qdialect.runtime.bundle import Bundle, build_bundle
from qdialect.runtime.executor import HostNpuExecutor, npu_target
from qdialect.transforms.npu_partition import NpuPartition


@dataclass
class BundledRun:
    got: list[np.ndarray]  # the bundle's outputs (host interpreter + NPU simulator)
    want: list[np.ndarray]  # the interpreter's, on the canonicalized, unpartitioned module
    executor: HostNpuExecutor
    partitioned: ModuleOp

    def npu_functions(self) -> list[FuncOp]:
        return [f for f in self.partitioned.body.block.ops
                if isinstance(f, FuncOp) and npu_target(f) is not None]  # fmt: skip

    def host_ops(self) -> list[str]:
        """The op names the entry function runs on the host (calls excluded)."""
        main = next(f for f in self.partitioned.body.block.ops
                    if isinstance(f, FuncOp) and f.sym_name.data == "main")  # fmt: skip
        return [op.name for op in main.body.block.ops
                if op.name not in ("func.call", "func.return")]  # fmt: skip


def random_arguments(module: ModuleOp, seed: int = 0) -> list[np.ndarray]:
    """One random argument per parameter of `@main`: int8 over the whole range, float
    standard-normal."""
    main = next(f for f in module.body.block.ops if isinstance(f, FuncOp))
    rng = np.random.default_rng(seed)
    args = []
    for t in main.function_type.inputs.data:
        shape = tuple(t.get_shape())  # type: ignore[attr-defined]
        if str(t.get_element_type()) == "i8":  # type: ignore[attr-defined]
            args.append(rng.integers(-128, 128, shape).astype(np.int8))
        else:
            args.append(rng.normal(0, 1, shape).astype(np.float32))
    return args


def run_bundled(module: ModuleOp, args: Sequence[np.ndarray] | None = None) -> BundledRun:
    """`canonicalize,npu-partition`, the bundle written and read back, run by the host +
    NPU executor; and the interpreter on the canonicalized module before partitioning."""
    ctx = make_context()
    CanonicalizePass().apply(ctx, module)
    reference = module.clone()
    NpuPartition().apply(ctx, module)
    bundle = Bundle.from_bytes(build_bundle(module).to_bytes())
    executor = HostNpuExecutor.from_bundle(bundle)
    args = list(args) if args is not None else random_arguments(reference)
    got = executor.call("main", args)
    want = Interpreter(reference).call("main", args)
    return BundledRun(got, want, executor, module)
