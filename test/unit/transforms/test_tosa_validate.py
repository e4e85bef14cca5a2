"""tosa-validate / tosa-attach-target options: a typo in a profile, extension or level is
a clear error naming the option, not a silently weaker check."""

from __future__ import annotations

import pytest

from qdialect.transforms.tosa_attach_target import TosaAttachTarget
from qdialect.transforms.tosa_validate import LEVEL_8K, TosaValidate


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"profile": ("pro_int", "pro_float")}, "unknown profile 'pro_float'"),
        ({"extension": ("int8",)}, "unknown extension 'int8'"),
        ({"level": "16k"}, "level must be '8k' or 'none'"),
    ],
)
def test_bad_options_are_named(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        TosaValidate(**kwargs)


def test_attach_target_checks_its_options_too() -> None:
    with pytest.raises(ValueError, match="unknown profile 'pro_any'"):
        TosaAttachTarget(profiles=("pro_any",))


def test_level_8k_is_the_specification_table() -> None:
    assert LEVEL_8K == {
        "MAX_RANK": 6,
        "MAX_KERNEL": 8192,
        "MAX_STRIDE": 8192,
        "MAX_SCALE": 256,
        "MAX_LOG2_SIZE": 31,
        "MAX_NESTING": 6,
        "MAX_TENSOR_LIST_SIZE": 64,
    }
