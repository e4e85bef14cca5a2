"""`tosa-to-npu` emits byte-identical binaries for a fixed set of models.

The stored digests (`npu_golden.json`) were written by the lowering as it was
before its stages were split, so a refactoring of the back end that changes a
single instruction, constant byte or manifest entry fails here, naming the case.
The bit-exactness tests say a program is *correct*; this one says it is the *same*.
After a deliberate change of the emitted code, rewrite the file and say why in
the commit:

    PYTHONPATH=test python -m unit.lowering.test_tosa_to_npu_golden --write
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from xdsl.transforms.canonicalize import CanonicalizePass

from qdialect.context import make_context
from qdialect.dialects.npu import ProgramOp, program_binary
from qdialect.ir.parser import QParser
from qdialect.lowering.tosa_to_npu import TosaToNpu
from qdialect.models import networks
from qdialect.npu.machine import load_machine
from qdialect.transforms.legalize_to_tosa import LegalizeToTosa
from unit.lowering import test_tosa_to_npu as cases
from unit.transforms import test_legalize_to_tosa as legalize_cases

GOLDEN = Path(__file__).with_name("npu_golden.json")
EXAMPLES = Path(__file__).parents[3] / "examples"


def _tosa(stablehlo: str, canonicalize: bool = False) -> str:
    ctx = make_context()
    module = QParser(ctx, stablehlo).parse_module()
    LegalizeToTosa().apply(ctx, module)
    if canonicalize:
        CanonicalizePass().apply(ctx, module)
    return str(module)


def _sources() -> dict[str, Callable[[], str]]:
    """Case name -> TOSA source (built lazily, so collecting the tests stays cheap)."""
    out: dict[str, Callable[[], str]] = {
        "example-tosa_mlp": lambda: (EXAMPLES / "tosa_mlp.mlir").read_text(),
        "example-resnet_block": lambda: _tosa((EXAMPLES / "resnet_block.mlir").read_text(), True),
        "mlp-k-groups": lambda: cases.mlp(3, [1100, 9], seed=2),
        "mlp-tiled-m": lambda: cases.mlp(150, [40, 8], seed=152),
    }
    for name in networks.NETWORKS:
        out[f"net-{name}"] = lambda name=name: _tosa(networks.build(name, "small", seed=1).source)
    for variant, params in cases.CONV_VARIANTS.items():
        out[f"conv-{variant}"] = lambda v=variant, p=params: cases.conv_program(**p, seed=len(v))
    for kind in ("max", "avg"):
        out[f"pool-{kind}"] = lambda k=kind: cases.pool_program(
            k, 7, 9, 20, (3, 3), (2, 2), (1, 1, 1, 1), seed=63
        )
    for kind in cases.LEGALIZED_KINDS:
        out[f"layer-{kind}"] = lambda k=kind: _tosa(
            legalize_cases.layer(k, np.random.default_rng(len(k)))[0], True
        )
    for seed in range(4):
        out[f"random-{seed}"] = lambda s=seed: _tosa(cases.random_network(s)[0])
    return out


SOURCES = _sources()
CONFIGS = [("default", True), ("small", True), ("default", False)]


def binary_digest(tosa_source: str, machine: str, keep_on_chip: bool) -> str:
    """SHA-256 of the `.npub` bytes: code, constant sections and io manifest."""
    ctx = make_context()
    module = QParser(ctx, tosa_source).parse_module()
    TosaToNpu(machine=machine, keep_on_chip=keep_on_chip).apply(ctx, module)
    (program,) = [op for op in module.walk() if isinstance(op, ProgramOp)]
    data = program_binary(program, load_machine(machine).digest()).to_bytes()
    return hashlib.sha256(data).hexdigest()


def _key(name: str, machine: str, keep: bool) -> str:
    return f"{name}/{machine}{'' if keep else '/dram-only'}"


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_emitted_binaries_are_unchanged(name: str) -> None:
    golden = json.loads(GOLDEN.read_text())
    source = SOURCES[name]()
    for machine, keep in CONFIGS:
        key = _key(name, machine, keep)
        assert binary_digest(source, machine, keep) == golden[key], f"{key}: the binary changed"


def write() -> None:
    digests = {}
    for name in sorted(SOURCES):
        source = SOURCES[name]()
        for machine, keep in CONFIGS:
            digests[_key(name, machine, keep)] = binary_digest(source, machine, keep)
    GOLDEN.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(digests)} digests to {GOLDEN}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        raise SystemExit(__doc__)
    write()
