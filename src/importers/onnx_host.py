"""What the ONNX importer's op mixins use of the importer they are mixed into.

`OrtKernels`, `FloatOps`, `ResizeOps` and `ConvOps` are mixins of `onnx_import.Importer`:
their methods call the importer's state and helpers (`self.e`, `self._input`, ...) and
each other's. `ImporterLike` lists those members so a type checker can check the calls:
each mixin derives from it while type checking only (at run time the mixins are plain
classes), and the checker in turn holds `Importer`'s definitions to these signatures.

A mixin that starts using another member of the importer adds it here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from qdialect.importers.emitter import Emitter, Value

if TYPE_CHECKING:
    from onnx import NodeProto


class ImporterLike(Protocol):
    # ---- state (onnx_import.Importer) -------------------------------------------------
    e: Emitter
    opset: int
    constants: dict[str, np.ndarray]
    values: dict[str, Value]
    # DequantizeLinear outputs: (source, scale, zero point, axis)
    dq: dict[str, tuple[str, np.ndarray, np.ndarray, int]]
    consumers: dict[str, list[NodeProto]]
    outputs: set[str]

    # ---- helpers (onnx_import.Importer) -----------------------------------------------
    @staticmethod
    def _attrs(node: NodeProto) -> dict[str, Any]: ...

    def _input(self, node: NodeProto, i: int) -> Value: ...

    def _const_input(self, node: NodeProto, i: int, what: str) -> np.ndarray: ...

    def _scale_zp(self, node: NodeProto, i: int) -> tuple[np.ndarray, np.ndarray]: ...

    def _storage(self, node: NodeProto, zp_index: int) -> str: ...

    def _integer_zp(self, node: NodeProto, i: int, per: int | None = None) -> np.ndarray: ...

    def _widen(self, x: Value, zp: Any, dim: int | None = None) -> Value: ...

    def _requantize(
        self,
        acc: Value,
        scale: np.ndarray,
        zp: int,
        dim: int,
        relu: bool = False,
        out: str = "i8",
    ) -> Value: ...

    def _quantize_after(self, node: NodeProto) -> tuple[NodeProto, bool]: ...

    def _dequantized(
        self, node: NodeProto, i: int, what: str
    ) -> tuple[Value | np.ndarray, np.ndarray, np.ndarray]: ...

    def _dequantized_bias(
        self, node: NodeProto, s_x: np.ndarray, s_w: np.ndarray
    ) -> Value | np.ndarray | None: ...

    def _dequantize_activation(self, name: str) -> Value: ...

    def _per_channel_axis(self, node: NodeProto, i: int, expected: int) -> None: ...

    def _unary_group(
        self, node: NodeProto
    ) -> tuple[Value, np.ndarray, np.ndarray, np.ndarray, np.ndarray, str, str]: ...

    def _passthrough(self, node: NodeProto) -> tuple[Value, str]: ...

    def _broadcast_shape(self, node: NodeProto, *values: Value) -> tuple[int, ...]: ...

    def _reshaped(self, node: NodeProto, x: Value, shape: tuple[int, ...]) -> Value: ...

    def _rows(
        self, node: NodeProto, a: Value | np.ndarray, compute: Callable[[Any], Value]
    ) -> Value: ...

    def _matmul_acc(self, node: NodeProto, a: Value, z_a: Any, b: Any, z_b: Any) -> Value: ...

    # ---- one mixin's methods another calls ----------------------------------------------
    def _broadcast_to(self, node: NodeProto, x: Value, shape: tuple[int, ...]) -> Value: ...

    def _float_operand(self, node: NodeProto, i: int) -> Value: ...

    def _float_binary(self, node: NodeProto, op: str) -> None: ...

    def _float_softmax(self, node: NodeProto, log: bool) -> None: ...

    def _float_gemm(self, node: NodeProto) -> None: ...

    def _float_average_pool(self, node: NodeProto) -> None: ...

    def _float_global_average_pool(self, node: NodeProto) -> None: ...

    def _pool_geometry(
        self, node: NodeProto, x: Value
    ) -> tuple[list[int], list[int], list[int], tuple[int, int], bool]: ...

    def _pads(
        self, node: NodeProto, size: tuple[int, int], kernel: Any, strides: Any, dilations: Any
    ) -> list[int]: ...
