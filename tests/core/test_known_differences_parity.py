"""The fuzzer's last open differences (issue 14), each widened into generated cases run under gradlab and
under live torch: set_'s combined parser message, resize_/resize_as_ to the same size (a no-op: strides,
values and version kept) or with a memory format, pin_memory/is_pinned with a device (an index fails
before any warning), and the parts of a conjugated tensor (PyTorch's conj bit: `.imag` records a neg view,
whose gradient's zeros are -0.). The outcomes (values with the sign of zero, strides, version, grad_fn chain,
warnings, or the exception's type and message) must be the same.
"""
import itertools
import warnings

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

SET_CASES = [f"x.set_({args})" for args in (
    "1", "True", "None", "'a'", "[1]", "2.5", "x, 1", "x, 0, 2", "x, 0, (2,), 'a'", "source=1", "x, storage_offset=0",
    "x", "", "x, 0, (1,)", "x, 0, (2,), (1,)", "x, 1, (1,)", "torch.ones(3)", "torch.ones(2, dtype=torch.float64)")]

RESIZE_BASES = ["torch.zeros(1).expand(4)", "torch.zeros(2, 1).expand(2, 3)", "torch.arange(6.).reshape(2, 3).t()",
                "torch.arange(6.).reshape(2, 3)[:, ::2]", "torch.arange(6.).reshape(2, 3)"]
RESIZE_TARGETS = ["resize_({shape})", "resize_({shape}, memory_format=torch.contiguous_format)",
                  "resize_as_(torch.ones({shape}))", "resize_as_(torch.ones({shape}), memory_format=torch.contiguous_format)"]
RESIZE_SHAPES = ["same", "6", "2, 2", "3, 2", "2, 3"]

PIN_CASES = [f"torch.ones(2).{m}({d})" for m in ("pin_memory", "is_pinned")
             for d in ("", "0", "1", "'cpu'", "'cpu:0'", "'cuda'", "'cuda:1'", "'meta'", "torch.device('cpu')",
                       "torch.device('cuda')", "device=None", "device='cpu'")]

PART_EXPRS = ["a.conj().imag", "a.conj().real", "a.imag", "a.real", "a.conj().imag * 2", "a.conj().conj().imag",
              "a.conj().conj().real", "torch.imag(a.conj())", "torch.real(a.conj())", "a.conj().imag[0]",
              "a.conj().imag.exp()", "torch.view_as_real(a.conj() * 2)", "a.conj().imag + a.imag"]


def _describe(value, module):
    if isinstance(value, module.Tensor):
        data = value.detach()
        if data.is_neg():                   # (PyTorch's numpy() refuses a neg bit)
            data = data.resolve_neg()
        if data.is_complex():
            data = module.view_as_real(data.resolve_conj())
        values = np.asarray(data.numpy(), dtype=np.float64)
        return ("Tensor", str(value.dtype), tuple(value.shape), values.tolist(), np.signbit(values).tolist())
    return repr(value)


def _chain(fn):
    names, stack = [], [(fn, 0)]
    while stack:                       # (depth first, without recursion)
        f, depth = stack.pop()
        if f is None:
            continue
        names.append((depth, f.name()))
        stack.extend((g, depth + 1) for g, _ in reversed(f.next_functions))
    return names


def run(module, code, setup=""):
    namespace = {"torch": module, "x": module.ones(2)}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(setup, namespace)
            value = eval(code, namespace)
            result = _describe(value, module)
        except Exception as error:  # noqa: BLE001 - the point is to compare whatever is raised
            result = f"{type(error).__name__}: {error}"
    return result, [(w.category.__name__, str(w.message)) for w in caught]


@pytest.mark.parametrize("code", SET_CASES)
def test_set_as_torch(code):
    assert run(gradlab, code) == run(torch, code)


@pytest.mark.parametrize("base,target,shape", list(itertools.product(RESIZE_BASES, RESIZE_TARGETS, RESIZE_SHAPES)))
def test_resize_as_torch(base, target, shape):
    setup = f"a = {base}"
    shape = "a.shape" if shape == "same" else shape
    code = f"(lambda r: (tuple(r.shape), r.stride(), r._version, r.is_contiguous()))(a.{target.format(shape=shape)})"
    assert run(gradlab, code, setup) == run(torch, code, setup)
    if shape == "a.shape" and "memory_format" not in target:           # a no-op: the values too
        values = f"a.{target.format(shape=shape)}"
        assert run(gradlab, values, setup) == run(torch, values, setup)


@pytest.mark.parametrize("code", PIN_CASES)
def test_pinning_as_torch(code):
    assert run(gradlab, code) == run(torch, code)


@pytest.mark.parametrize("expr", PART_EXPRS)
def test_conjugate_parts_as_torch(expr):
    def outcome(module):
        a = module.tensor([[complex(-2.45, -3.8), complex(3.0, 0.0)], [complex(0.0, -1.5), complex(1.25, 2.0)]],
                          dtype=module.complex64, requires_grad=True)
        y = eval(expr, {"torch": module, "a": a})
        chain = _chain(y.grad_fn)
        y.sum().backward() if y.dtype.is_floating_point else module.view_as_real(y).sum().backward()
        return _describe(y, module), chain, _describe(a.grad, module)
    assert outcome(gradlab) == outcome(torch)
