"""x.numpy() and np.asarray(x) of a tensor that requires grad: PyTorch refuses them only while grad mode is on
(the program fuzzer's seed 3340: numpy() under set_grad_enabled(False)). Generated: every grad mode, tensors with
and without requires_grad or history, each conversion; the outcome (the array's values, or the error) under gradlab
and under torch must be the same."""
import itertools

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

MODES = ["no_grad", "enable_grad", "inference_mode"]
TENSORS = ["torch.ones(2, requires_grad=True)", "torch.ones(2)", "torch.ones(2, requires_grad=True) * 2",
           "torch.ones(2, 3, requires_grad=True)[0]"]
CONVERSIONS = ["x.numpy()", "np.asarray(x)", "x.numpy(force=True)", "x.tolist()", "x.detach().numpy()"]


def outcome(module, mode, make, convert):
    x = eval(make, {"torch": module})
    with getattr(module, mode)():
        try:
            return repr(np.asarray(eval(convert, {"x": x, "np": np})).tolist())
        except Exception as error:  # noqa: BLE001 - the point is to compare whatever is raised
            return f"{type(error).__name__}: {error}"


@pytest.mark.parametrize("mode, make, convert", list(itertools.product(MODES, TENSORS, CONVERSIONS)))
def test_same_outcome_as_torch(mode, make, convert):
    assert outcome(gradlab, mode, make, convert) == outcome(torch, mode, make, convert)
