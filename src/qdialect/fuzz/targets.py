"""What each fuzz target mutates and how it invokes its tool.

A target turns a `random.Random` into one case: a mutated input written to a work
directory and the tool's `main` with its arguments. Seeds are inputs the project can
make itself (quantized StableHLO networks, their TOSA, NPU assembly and binaries, the
shipped machine descriptions, ONNX and TFLite models quantized by ONNX Runtime and
LiteRT), plus any files found in the corpus directories given.
"""

from __future__ import annotations

import functools
import logging
import random
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from qdialect.fuzz import mutate


@dataclass(frozen=True)
class Case:
    """One invocation: `main(argv)` of a tool, its input already written."""

    tool: str
    argv: tuple[str, ...]
    main: Callable[[list[str]], int]

    def __call__(self) -> int:
        return self.main(list(self.argv))

    def describe(self) -> str:
        return " ".join((self.tool, *self.argv))


@dataclass(frozen=True)
class Target:
    name: str
    needs: str  # what the seeds need, for the message when they cannot be made
    make: Callable[[random.Random, Path], Case]


class SeedsUnavailable(Exception):
    """The seeds need an optional package (onnxruntime, ai-edge-litert) not installed."""


# ---------------------------------------------------------------- seeds


@dataclass(frozen=True)
class IRSeed:
    text: str
    passes: tuple[tuple[str, ...], ...]  # qopt option sets that suit it
    entry: str | None  # the function qrun runs with random inputs, if any


_STABLEHLO_PASSES = (
    (),
    ("-p", "canonicalize"),
    ("-p", "stablehlo-lower-quant"),
    ("-p", "stablehlo-legalize-to-tosa"),
    ("-p", "stablehlo-legalize-quantized-op-to-qdq"),
)
_TOSA_PASSES = (
    (),
    ("-p", "canonicalize"),
    ("-p", "tosa-to-npu"),
    ("-p", "tosa-to-npu", "-t", "npu-asm"),
)

_corpus_dirs: list[Path] = []


def add_corpus(paths: Iterable[Path]) -> None:
    """Also use the files under `paths` (by extension) as seeds."""
    _corpus_dirs.extend(paths)
    for cached in (ir_seeds, assembly_seeds):
        cached.cache_clear()


def _corpus_files(suffix: str) -> list[Path]:
    return sorted(p for d in _corpus_dirs for p in d.rglob(f"*{suffix}") if p.is_file())


def _qopt(text: str, *options: str) -> bytes:
    """`qopt` run on `text` with `options`: the output file's bytes."""
    from qdialect.tools import qopt

    with tempfile.TemporaryDirectory() as folder:
        source, output = Path(folder) / "in.mlir", Path(folder) / "out"
        source.write_text(text)
        if qopt.main([str(source), *options, "-o", str(output)]) != 0:
            raise RuntimeError(f"a fuzz seed does not compile with qopt {' '.join(options)}")
        return output.read_bytes()


@functools.cache
def _tosa_networks() -> tuple[str, ...]:
    from qdialect.models import networks

    return tuple(
        _qopt(networks.build(name).source, "-p", "stablehlo-legalize-to-tosa").decode()
        for name in networks.NETWORKS
    )


@functools.cache
def ir_seeds() -> tuple[IRSeed, ...]:
    from qdialect.models import networks

    seeds = [IRSeed(networks.build(n).source, _STABLEHLO_PASSES, "main") for n in networks.NETWORKS]
    seeds += [IRSeed(text, _TOSA_PASSES, "main") for text in _tosa_networks()]
    for path in _corpus_files(".mlir"):
        text = path.read_text(encoding="utf-8", errors="replace")
        split = ("--split-input-file",) if "// -----" in text else ()
        seeds.append(IRSeed(text, ((*split,), ("-p", "canonicalize", *split)), None))
    return tuple(seeds)


@functools.cache
def assembly_seeds() -> tuple[str, ...]:
    seeds = [_qopt(t, "-p", "tosa-to-npu", "-t", "npu-asm").decode() for t in _tosa_networks()]
    seeds += [p.read_text(encoding="utf-8", errors="replace") for p in _corpus_files(".s")]
    return tuple(seeds)


@functools.cache
def binary_seeds() -> tuple[bytes, ...]:
    return tuple(_qopt(t, "-p", "tosa-to-npu", "-t", "npu-bin") for t in _tosa_networks())


@functools.cache
def bundle_seeds() -> tuple[bytes, ...]:
    return tuple(_qopt(t, "-p", "npu-partition", "-t", "bundle") for t in _tosa_networks())


@functools.cache
def machine_seeds() -> tuple[str, ...]:
    folder = Path(__file__).resolve().parent.parent / "npu" / "machines"
    return tuple(p.read_text() for p in sorted(folder.glob("*.json")))


@functools.cache
def onnx_seeds() -> tuple[bytes, ...]:
    try:
        from qdialect.models import onnx_models

        logging.getLogger().setLevel(logging.ERROR)  # the quantizer's advice, once per seed
        return tuple(
            onnx_models.quantized(name, qdq=qdq, per_channel=per_channel)[0]
            for name, qdq, per_channel in (
                ("cnn", True, True),
                ("cnn", False, False),
                ("residual_cnn", True, False),
                ("branchy_cnn", True, True),
            )
        )
    except ImportError as err:
        raise SeedsUnavailable(f"ONNX seeds need onnxruntime ({err})") from None


@functools.cache
def tflite_seeds() -> tuple[bytes, ...]:
    try:
        from qdialect.models import tflite_builder

        return tuple(
            tflite_builder.quantized(name)[0]
            for name in ("mobilenet_like", "mixed_ops", "classifier", "mlp")
        )
    except ImportError as err:
        raise SeedsUnavailable(f"TFLite seeds need ai-edge-litert ({err})") from None


def _manifest_inputs(binary: bytes) -> dict[str, object]:
    import numpy as np

    from qdialect.npu.encoding import load_binary
    from qdialect.npu.machine import load_machine

    loaded = load_binary(binary, load_machine("default"), "seed.npub")
    return {t.name: np.zeros(t.shape, np.dtype(t.dtype)) for t in loaded.inputs}


# ---------------------------------------------------------------- targets


def _tool(name: str) -> Callable[[list[str]], int]:
    import importlib

    return importlib.import_module(f"qdialect.tools.{name}").main


def _qopt_case(rng: random.Random, work: Path) -> Case:
    seed = rng.choice(ir_seeds())
    source = work / "input.mlir"
    source.write_text(mutate.mutate_text(rng, seed.text), encoding="utf-8", errors="surrogatepass")
    options = rng.choice(seed.passes)
    return Case("qopt", (str(source), *options, "-o", str(work / "out")), _tool("qopt"))


def _qrun_case(rng: random.Random, work: Path) -> Case:
    seed = rng.choice(ir_seeds())
    source = work / "input.mlir"
    source.write_text(mutate.mutate_text(rng, seed.text), encoding="utf-8", errors="surrogatepass")
    options: tuple[str, ...] = ()
    if seed.entry is not None:
        options = ("--entry", seed.entry, "--random-inputs", str(rng.randrange(4)))
    elif "// -----" in seed.text:
        options = ("--split-input-file",)
    return Case("qrun", (str(source), *options), _tool("qrun"))


def _onnx_case(rng: random.Random, work: Path) -> Case:
    model = work / "model.onnx"
    model.write_bytes(mutate.mutate_onnx(rng, rng.choice(onnx_seeds())))
    target = rng.choice(("stablehlo", "tosa"))
    argv = (str(model), "--target", target, "-o", str(work / "out.mlir"))
    return Case("qimport", argv, _tool("qimport"))


def _tflite_case(rng: random.Random, work: Path) -> Case:
    model = work / "model.tflite"
    model.write_bytes(mutate.mutate_bytes(rng, rng.choice(tflite_seeds())))
    return Case("qimport", (str(model), "-o", str(work / "out.mlir")), _tool("qimport"))


def _qasm_case(rng: random.Random, work: Path) -> Case:
    source = work / "program.s"
    text = mutate.mutate_text(rng, rng.choice(assembly_seeds()))
    source.write_text(text, encoding="utf-8", errors="surrogatepass")
    return Case("qasm", (str(source), "-o", str(work / "out.npub")), _tool("qasm"))


def _qasm_disassemble_case(rng: random.Random, work: Path) -> Case:
    binary = work / "program.npub"
    binary.write_bytes(mutate.mutate_bytes(rng, rng.choice(binary_seeds())))
    return Case("qasm", ("-d", str(binary), "-o", str(work / "out.s")), _tool("qasm"))


def _qsim_case(rng: random.Random, work: Path) -> Case:
    seed = rng.choice(binary_seeds())
    binary, argv = work / "program.npub", [str(work / "program.npub")]
    mode = rng.randrange(3)
    if mode == 0:  # a corrupt binary
        binary.write_bytes(mutate.mutate_bytes(rng, seed))
        argv += ["--random-inputs", "0"]
    elif mode == 1:  # a hostile machine description
        binary.write_bytes(seed)
        machine = work / "machine.json"
        machine.write_text(mutate.mutate_json(rng, rng.choice(machine_seeds())))
        argv += ["--machine", str(machine), "--random-inputs", "0"]
    else:  # hostile inputs
        binary.write_bytes(seed)
        inputs = work / "inputs.npz"
        inputs.write_bytes(mutate.mutate_npz(rng, _manifest_inputs(seed)))
        argv += ["--inputs", str(inputs), "--outputs", str(work / "out.npz")]
    return Case("qsim", tuple(argv), _tool("qsim"))


def _qrt_case(rng: random.Random, work: Path) -> Case:
    """A bundle damaged as bytes, in its manifest, in its host program, or given hostile
    inputs."""
    import io
    import zipfile

    seed = rng.choice(bundle_seeds())
    bundle, argv = work / "model.qbundle", [str(work / "model.qbundle")]
    mode = rng.randrange(4)
    if mode == 0:
        bundle.write_bytes(mutate.mutate_bytes(rng, seed))
    elif mode in (1, 2):
        member = "manifest.json" if mode == 1 else "host.mlir"
        source = zipfile.ZipFile(io.BytesIO(seed))
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as z:
            for name in source.namelist():
                content = source.read(name)
                if name == member:
                    text = content.decode()
                    edited = (
                        mutate.mutate_json(rng, text)
                        if mode == 1
                        else mutate.mutate_text(rng, text)
                    )
                    content = edited.encode("utf-8", "surrogatepass")
                z.writestr(name, content)
        bundle.write_bytes(out.getvalue())
    else:
        bundle.write_bytes(seed)
        first = zipfile.ZipFile(io.BytesIO(seed)).read("regions/main_npu0.npub")
        inputs = work / "inputs.npz"
        inputs.write_bytes(mutate.mutate_npz(rng, _manifest_inputs(first)))
        argv += ["--inputs", str(inputs), "--outputs", str(work / "out.npz")]
        return Case("qrt", tuple(argv), _tool("qrt"))
    argv += ["--random-inputs", "0", "--stats"]
    return Case("qrt", tuple(argv), _tool("qrt"))


TARGETS: dict[str, Target] = {
    t.name: t
    for t in (
        Target("qopt", "", _qopt_case),
        Target("qrun", "", _qrun_case),
        Target("qimport-onnx", "onnxruntime", _onnx_case),
        Target("qimport-tflite", "ai-edge-litert", _tflite_case),
        Target("qasm", "", _qasm_case),
        Target("qasm-disassemble", "", _qasm_disassemble_case),
        Target("qsim", "", _qsim_case),
        Target("qrt", "", _qrt_case),
    )
}


def prepare(target: Target) -> None:
    """Build the target's seeds now (in the parent, once), so children only mutate."""
    {
        "qopt": ir_seeds,
        "qrun": ir_seeds,
        "qimport-onnx": onnx_seeds,
        "qimport-tflite": tflite_seeds,
        "qasm": assembly_seeds,
        "qasm-disassemble": binary_seeds,
        "qsim": lambda: (binary_seeds(), machine_seeds()),
        "qrt": bundle_seeds,
    }[target.name]()
