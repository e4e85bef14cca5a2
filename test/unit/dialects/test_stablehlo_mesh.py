"""Mesh-axes replica groups built from Python: the groups they expand to, against the
dense groups upstream's compatibility expander writes for the same meshes (its test
file, stablehlo/tests/transforms/mesh_axes_replica_group_compatibility.mlir), and the
attribute's verifier."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    IntAttr,
    NoneAttr,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    i64,
)
from xdsl.utils.exceptions import VerifyException

from qdialect.dialects.stablehlo_mesh import (
    AxisRefAttr,
    MeshAttr,
    MeshAxisAttr,
    ReplicaGroupMeshAxesAttr,
    SubAxisInfoAttr,
    mesh_groups,
)


def mesh(*axes: tuple[str, int], device_ids: list[int] | None = None) -> MeshAttr:
    ids = (
        NoneAttr()
        if device_ids is None
        else DenseIntOrFPElementsAttr.from_list(TensorType(i64, [len(device_ids)]), device_ids)
    )
    return MeshAttr(ArrayAttr([MeshAxisAttr(StringAttr(n), IntAttr(s)) for n, s in axes]), ids)


def groups(m: MeshAttr, *names: str) -> list[list[int]]:
    axes = ArrayAttr([AxisRefAttr(StringAttr(n), NoneAttr()) for n in names])
    return mesh_groups(ReplicaGroupMeshAxesAttr(m, axes))


@pytest.mark.parametrize(
    ("m", "names", "expected"),
    [
        (mesh(("x", 2), ("y", 2)), ["x"], [[0, 2], [1, 3]]),
        (mesh(("x", 2), ("y", 2)), ["y"], [[0, 1], [2, 3]]),
        (mesh(("x", 2), ("y", 2), device_ids=[0, 2, 1, 3]), ["x"], [[0, 1], [2, 3]]),
        (mesh(("x", 2), ("y", 2)), ["x", "y"], [[0, 1, 2, 3]]),
        (mesh(("x", 2), ("y", 2)), ["y", "x"], [[0, 2, 1, 3]]),
        (mesh(("x", 2), ("y", 3)), [], [[0], [1], [2], [3], [4], [5]]),
    ],
)
def test_groups_match_upstream_flattening(
    m: MeshAttr, names: list[str], expected: list[list[int]]
) -> None:
    assert groups(m, *names) == expected


def test_sub_axis_and_bad_device_ids_are_refused() -> None:
    m = mesh(("x", 2))
    sub = ArrayAttr([AxisRefAttr(StringAttr("x"), SubAxisInfoAttr(IntAttr(1), IntAttr(2)))])
    with pytest.raises(ValueError, match="sub-axis of 'x'"):
        mesh_groups(ReplicaGroupMeshAxesAttr(m, sub))
    with pytest.raises(ValueError, match="the mesh has 2 devices but device_ids lists 3"):
        groups(mesh(("x", 2), device_ids=[0, 1, 2]), "x")
    with pytest.raises(ValueError, match="name mesh axis 'x' twice"):
        groups(mesh(("x", 2)), "x", "x")


def test_verifier_in_upstream_words() -> None:
    ok = ReplicaGroupMeshAxesAttr(SymbolRefAttr("m"), ArrayAttr([]))
    ok.verify()
    with pytest.raises(VerifyException, match="axis 'z' not found in mesh definition"):
        ReplicaGroupMeshAxesAttr(
            mesh(("x", 2)), ArrayAttr([AxisRefAttr(StringAttr("z"), NoneAttr())])
        )
    with pytest.raises(VerifyException, match="mesh must be a FlatSymbolRefAttr or MeshAttr"):
        ReplicaGroupMeshAxesAttr(SymbolRefAttr("a", [StringAttr("b")]), ArrayAttr([]))
