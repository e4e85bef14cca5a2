"""The mixed-precision search (`qdialect.calibration.mixed`): it must reach the target
it reports, by promoting ops in the order of their measured sensitivity, and say so
when even promoting every candidate does not."""

from __future__ import annotations

import numpy as np
import pytest

from qdialect.calibration.calibrate import CalibrationError, calibrate
from qdialect.calibration.mixed import candidates, search, sqnr, top1_agreement
from qdialect.calibration.workflow import integer, quantized
from qdialect.interpreter import Interpreter

from ..transforms.test_quantize import parse, residual_program


@pytest.fixture(scope="module")
def setup():
    module = parse(residual_program())
    rng = np.random.default_rng(5)
    inputs = [[rng.normal(0, 1, (1, 3, 3, 4)).astype(np.float32)] for _ in range(6)]
    return module, calibrate(module, iter(inputs)), inputs


def integer_score(module, cal, table, inputs) -> float:
    want = [Interpreter(module).call("main", a)[0] for a in inputs]
    program = integer(quantized(module, cal, qtable=table))
    return sqnr(want, [Interpreter(program).call("main", a)[0] for a in inputs])


@pytest.mark.parametrize("promote", ["i16", "float"])
def test_search_reaches_the_target_with_the_most_sensitive_ops_first(setup, promote) -> None:
    module, cal, inputs = setup
    baseline = integer_score(module, cal, None, inputs)
    result = search(module, cal, inputs, baseline + 6.0, promote=promote)
    print(result.report("sqnr"))
    assert result.baseline == pytest.approx(baseline)
    assert result.reached and result.score >= baseline + 6.0
    # the score is what the qtable gives, measured again from scratch
    assert integer_score(module, cal, result.qtable, inputs) == pytest.approx(result.score)
    assert set(result.qtable.entries.values()) == {promote}
    order = sorted(result.sensitivity, key=lambda k: -result.sensitivity[k])
    assert list(result.qtable.entries) == order[: len(result.qtable.entries)]
    assert len(result.qtable.entries) < len(candidates(next(iter(module.body.block.ops))))


def test_an_unreachable_target_is_reported(setup) -> None:
    module, cal, inputs = setup
    result = search(module, cal, inputs, 1000.0)
    assert not result.reached
    assert len(result.qtable.entries) == len(result.sensitivity)
    assert "NOT reached" in result.report("sqnr")


def test_a_reached_baseline_promotes_nothing(setup) -> None:
    module, cal, inputs = setup
    result = search(module, cal, inputs, 0.5, metric="top1")
    assert result.reached and not result.qtable.entries and not result.sensitivity


def test_metrics() -> None:
    ref = [np.array([[1.0, 3.0, 2.0]]), np.array([[0.0, -1.0, 5.0]])]
    assert top1_agreement(ref, [np.array([[0.0, 9.0, 1.0]]), np.array([[9.0, 0.0, 1.0]])]) == 0.5
    assert sqnr(ref, ref) == float("inf")
    assert sqnr([np.array([3.0, 4.0])], [np.array([3.0, 3.0])]) == pytest.approx(10 * np.log10(25))
    with pytest.raises(CalibrationError, match="unknown metric"):
        search(parse(residual_program()), None, [[np.zeros(1)]], 1.0, metric="mae")  # type: ignore[arg-type]
