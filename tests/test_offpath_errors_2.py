"""Off the tutorial paths, part 2: the fuzzer's remaining groups in indexing, reductions and shape ops.

Same method as test_offpath_errors.py: each case is a setup line and an expression, run under gradlab and
under torch; the printed result, dtype, requires_grad, grad_fn name (or the exception's type and message)
and the warnings must agree. Cases are generated from small grids of shapes, dtypes and argument kinds.
"""
import itertools
import warnings

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

_INTERNAL = ("AxisError", "numpy", "_data", "ndarray", "tuple index out of range", "too many indices for array",
             "missing 1 required", "missing 2 required", "not supported between")


def _describe(r):
    if isinstance(r, (torch.Tensor, gradlab.Tensor)):
        grad_fn = type(r.grad_fn).__name__ if r.grad_fn is not None else None
        return ("tensor", repr(r), str(r.dtype), r.requires_grad, grad_fn, tuple(r.shape), r.is_contiguous())
    if isinstance(r, (tuple, list)):
        return ("sequence",) + tuple(_describe(x) for x in r)
    return ("value", repr(r))


def outcome(module, setup, expression):
    env = {"torch": module, "np": np}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        exec(setup, env)
        try:
            result = ("ok", _describe(eval(expression, env)))
        except Exception as e:    # noqa: BLE001 (the exception is the outcome)
            result = ("error", type(e).__name__, str(e))
    return result, [(w.category.__name__, str(w.message)) for w in caught]


def check(setup, expression):
    expected = outcome(torch, setup, expression)
    got = outcome(gradlab, setup, expression)
    if got != expected and got[0][0] == "error":      # numpy's/Python's own words are a failure of their own
        assert not any(s in got[0][1] + got[0][2] for s in _INTERNAL), got
    assert got == expected


def _ids(cases):
    return [f"{s} :: {e}" for s, e in cases]


_DTYPES = ["torch.float32", "torch.float64", "torch.float16", "torch.int64", "torch.int8", "torch.uint8",
           "torch.bool"]


# --- broadcast_tensors / broadcast_shapes -------------------------------------------------------------

_SHAPES = ["()", "(2,)", "(3,)", "(2, 1)", "(1, 3)", "(0,)", "(0, 1)", "(4, 1, 1)", "(2, 3)"]
_BROADCAST = [("a = torch.ones(2, requires_grad=True)", e) for e in (
    "torch.broadcast_tensors(3)", "torch.broadcast_tensors()", "torch.broadcast_tensors(a, None)",
    "torch.broadcast_tensors([a])", "torch.broadcast_tensors((a, a))", "torch.broadcast_tensors(a, 0, 1)",
    "torch.broadcast_tensors(a, [1., 2.])", "torch.broadcast_tensors(a, np.ones(2))",
    "torch.broadcast_tensors(a)", "torch.broadcast_tensors(a, a.detach())", "torch.broadcast_tensors(a, a.t())",
    "torch.broadcast_shapes()", "torch.broadcast_shapes(None)", "torch.broadcast_shapes(None, (2,))",
    "torch.broadcast_shapes('a')", "torch.broadcast_shapes((2.,))", "torch.broadcast_shapes(2.5)",
    "torch.broadcast_shapes(-1)", "torch.broadcast_shapes((-1,))", "torch.broadcast_shapes(True)",
    "torch.broadcast_shapes(a)", "torch.broadcast_shapes(a, (0,))", "torch.broadcast_shapes(torch.tensor(2))",
    "torch.broadcast_shapes(torch.tensor(2.5))", "torch.broadcast_shapes(np.int64(2))",
    "torch.broadcast_shapes(np.array([2, 3]))", "torch.broadcast_shapes(((2,),))", "torch.broadcast_shapes({2: 3})",
    "torch.broadcast_shapes(a.shape, (3,))", "torch.broadcast_shapes(torch.Size([2, 3]), torch.Size([2]))",
    "torch.broadcast_shapes([2], [1])", "torch.broadcast_shapes(2, 3)", "torch.broadcast_shapes(2, 1)")]
_BROADCAST += [("", f"torch.broadcast_tensors(*[torch.zeros(s, requires_grad=i == 0) for i, s in enumerate([{a}, {b}])])")
               for a, b in itertools.product(_SHAPES, repeat=2)]
_BROADCAST += [("", f"torch.broadcast_shapes({a}, {b}, (1, 1, 1, 1))") for a, b in itertools.product(_SHAPES, repeat=2)]
_BROADCAST += [("", f"torch.broadcast_tensors(torch.ones({a}), torch.ones({b}), torch.ones({c}))")
               for a, b, c in itertools.product(_SHAPES[::2], repeat=3)]


@pytest.mark.parametrize("setup, expression", _BROADCAST, ids=_ids(_BROADCAST))
def test_broadcast_functions(setup, expression):
    check(setup, expression)
