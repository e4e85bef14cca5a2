"""`qimport`: a quantized model from another framework as qdialect IR.

    qimport model.tflite -o model.mlir
    qimport model.onnx -o model.mlir
    qimport model.onnx --target tosa -o model.tosa.mlir   # for tosa-to-npu

TFLite int8 models (any file with the `TFL3` identifier) become a TOSA program
that computes LiteRT's reference integers exactly (docs/tflite.md); `qopt -p
tosa-to-npu` compiles it for the NPU. Quantized ONNX models (`.onnx`,
QOperator format) become a StableHLO-like program that computes ONNX Runtime's
integers exactly (docs/onnx.md). The output is verified before it is written,
and every op carries the source model's tensor name as its location
(`loc("...")`), so later tools can name tensors as the model does. A file that
cannot be read or holds unsupported operators is an error naming them, with exit
status 1.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp

from qdialect.importers.onnx_import import ONNXImportError, import_onnx
from qdialect.importers.tflite import TFLiteImportError, import_tflite
from qdialect.ir.printer import module_text
from qdialect.tools.boundary import ToolArgumentParser, UserError, run_tool

MAX_FILE_BYTES = 2 << 30  # flatbuffers address at most 2 GiB


def _parser() -> argparse.ArgumentParser:
    p = ToolArgumentParser(prog="qimport", description=__doc__.splitlines()[0])
    p.add_argument("model", help="a .tflite or .onnx file")
    p.add_argument("-o", "--output", default="-", help="where to write the .mlir (default stdout)")
    p.add_argument(
        "--target",
        choices=("stablehlo", "tosa"),
        default="stablehlo",
        help="ONNX only: exact StableHLO-like arithmetic (default) or TOSA for the NPU",
    )
    return p


def import_module(path: str, target: str = "stablehlo") -> ModuleOp:
    """The verified module for the model at `path`."""
    file = Path(path)
    size = file.stat().st_size
    if size > MAX_FILE_BYTES:
        raise TFLiteImportError(f"{size} bytes is larger than any flatbuffer model can be")
    data = file.read_bytes()
    if data[4:8] == b"TFL3":
        return import_tflite(data)
    if file.suffix.lower() == ".onnx":
        return import_onnx(data, target)
    raise TFLiteImportError("neither a TFLite model (no 'TFL3' identifier) nor an .onnx file")


def import_file(path: str, target: str = "stablehlo") -> str:
    """The printed, verified module for the model at `path`, with locations."""
    return module_text(import_module(path, target), debuginfo=True)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)

    def body() -> int:
        try:
            text = import_file(args.model, args.target)
        except (TFLiteImportError, ONNXImportError) as err:
            raise UserError(f"{args.model}: {err}") from err
        # IR the importer built that does not verify (InvalidIRError, DiagnosticException)
        # is an importer bug: the boundary reports it as an internal error.
        if args.output == "-":
            sys.stdout.write(text)
        else:
            Path(args.output).write_text(text)
        return 0

    return run_tool("qimport", body)


if __name__ == "__main__":
    sys.exit(main())
