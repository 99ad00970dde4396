"""What each size-taking API does with a size that is not a plain int (issue 14, "no silent wrong
answers"): a one-element bool Tensor (which PyTorch refuses for a SymInt and a SymInt[], and reads as 1
for an IntArrayRef), one-element and 0-d integer and float Tensors, numpy's ints and bools, Python's bool.
Every call (API x size x position) runs under gradlab and under live torch; the outcome (the result's
shape and values, or the exception's type and message) must be the same.
"""
import itertools
import warnings

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

# the size values, as code run under either module
SIZES = ["torch.tensor([True])", "torch.tensor(True)", "torch.tensor([False])", "torch.tensor([2])",
         "torch.tensor(2)", "torch.tensor(2, dtype=torch.uint8)", "torch.tensor(2, dtype=torch.int8)",
         "torch.tensor(2.0)", "torch.tensor([2.0])", "torch.tensor([1, 2])", "torch.tensor([True, False])",
         "np.int64(2)", "np.int32(1)", "np.bool_(True)", "True", "2"]

# the APIs, `{S}` standing for the size; each with the size first and (where a list) later in the list
APIS = [
    "torch.zeros({S})", "torch.zeros({S}, 2)", "torch.zeros(2, {S})", "torch.zeros([{S}, 2])", "torch.zeros((2, {S}))",
    "torch.zeros(size=({S},))", "torch.ones({S})", "torch.empty({S}).shape", "torch.full(({S},), 1.0)",
    "torch.full((2, {S}), 1.0)", "torch.rand({S}).shape", "torch.randn(2, {S}).shape", "torch.randint(5, ({S},)).shape",
    "torch.empty_strided(({S},), (1,)).shape", "torch.zeros(2).view({S}, 2)", "torch.zeros(2).view(2, {S})",
    "torch.zeros(1).view({S})", "torch.zeros(2).reshape({S}, 2)", "torch.zeros(2).reshape(2, {S})",
    "torch.zeros(1).reshape({S})", "torch.reshape(torch.zeros(2), ({S}, 2))", "torch.zeros(2).reshape(shape=({S}, 2))",
    "torch.zeros(2).view(size=({S}, 2))", "torch.zeros(1).expand({S})", "torch.zeros(1).expand({S}, 2)",
    "torch.zeros(1).expand(2, {S})", "torch.zeros(1).expand([{S}])", "torch.broadcast_to(torch.zeros(1), ({S},))",
    "torch.zeros(1).new_zeros({S})", "torch.zeros(1).new_zeros(2, {S})", "torch.zeros(1).new_ones(({S},))",
    "torch.zeros(1).new_empty({S}).shape", "torch.zeros(1).new_full(({S},), 2.0)",
    "torch.zeros(1).new_empty_strided(({S},), (1,)).shape", "torch.zeros(1).repeat({S})",
    "torch.zeros(1).repeat(2, {S})", "torch.zeros(1).tile(({S},))", "torch.zeros(1).resize_({S}).shape",
    "torch.zeros(1).sum_to_size({S})", "torch.zeros(3).narrow(0, 0, {S})", "torch.zeros(3).narrow(0, {S}, 1)",
    "torch.zeros(3).narrow_copy(0, 0, {S})", "torch.zeros(4).unflatten(0, ({S}, 2))",
    "torch.zeros(4).unflatten(0, (2, {S}))", "torch.unflatten(torch.zeros(4), 0, (2, {S}))",
    "torch.zeros(2, 1).permute(0, {S})", "torch.zeros(2, 3, 3).sum({S})", "torch.zeros(4).select(0, {S})",
    "torch.zeros(4).as_strided(({S},), (1,))", "torch.zeros(4).as_strided((1,), (1,), {S})", "torch.zeros(4).roll({S})",
    "torch.zeros(4).chunk({S})", "torch.zeros(4).split({S})", "torch.zeros(4).topk({S})", "torch.zeros(4, 1).movedim({S}, 0)",
    "torch.zeros(4, 4).tril({S})", "torch.zeros(4).unfold(0, {S}, 1)", "torch.randperm({S}).shape", "torch.eye({S})",
    "torch.Size(({S},))", "torch.Size((2, {S}))",
    "F.pad(torch.zeros(1, 1, 4), ({S}, 1))", "F.pad(torch.zeros(1, 1, 4), (1, {S}))",
    "torch.constant_pad_nd(torch.zeros(1, 1, 4), ({S}, 1))", "F.max_pool2d(torch.zeros(1, 1, 4, 4), ({S}, 2))",
    "F.max_pool2d(torch.zeros(1, 1, 4, 4), (2, {S}))", "F.avg_pool2d(torch.zeros(1, 1, 4, 4), (2, {S}))",
    "F.adaptive_avg_pool1d(torch.zeros(1, 1, 4), ({S},))", "F.adaptive_avg_pool2d(torch.zeros(1, 1, 4, 4), ({S}, 2))",
    "F.adaptive_avg_pool3d(torch.zeros(1, 1, 4, 4, 4), ({S}, 2, 2))",
    "F.adaptive_max_pool2d(torch.zeros(1, 1, 4, 4), ({S}, 2))", "F.interpolate(torch.zeros(1, 1, 4, 4), size=({S}, 2))",
    "F.layer_norm(torch.zeros(2, 2), ({S},))", "F.layer_norm(torch.zeros(2, 2), (2, {S}))",
    "F.rms_norm(torch.zeros(2, 1), ({S},))", "F.unfold(torch.zeros(1, 1, 4, 4), ({S}, 2))",
    "F.fold(torch.zeros(1, 4, 4), ({S}, 3), 2)",
]

CASES = [api.format(S=size) for api, size in itertools.product(APIS, SIZES)]


def outcome(module, code):
    namespace = {"torch": module, "np": np, "F": module.nn.functional}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            value = eval(code, namespace)
        except Exception as error:  # noqa: BLE001 - the point is to compare whatever is raised
            # (gradlab's classes report gradlab's module unless the torch alias is installed: _alias.py)
            return f"{type(error).__name__}: {error}".replace("<class 'gradlab.", "<class 'torch.")
    if isinstance(value, (tuple, list)) and not isinstance(value, module.Size):
        return [outcome_of(v) for v in value]
    return outcome_of(value)


def outcome_of(value):
    if hasattr(value, "shape") and not isinstance(value, tuple):
        return "Tensor", tuple(value.shape), str(value.dtype), value.tolist()
    return type(value).__name__, tuple(value) if isinstance(value, tuple) else value


@pytest.mark.parametrize("code", CASES)
def test_size_argument_as_torch(code):
    assert outcome(gradlab, code) == outcome(torch, code)


def test_a_bool_size_is_refused():
    """The issue's case: a one-element bool Tensor is no size of 1."""
    for make in (lambda m: m.zeros(m.tensor([True])), lambda m: m.zeros(2).view(m.tensor(True), 2),
                 lambda m: m.zeros(1).expand(m.tensor([True])), lambda m: m.zeros(1).new_zeros(m.tensor(True))):
        with pytest.raises(RuntimeError, match=r"Expected scalar\.isIntegral\( false\) to be true"):
            make(gradlab)
