"""The meta device, generated cases run under gradlab and under torch: factories with device='meta', .to('meta'),
printing, .is_meta and .device, the shapes, dtypes and strides of pointwise ops, reductions, views, linear algebra
and autograd on meta tensors, and PyTorch's errors for reading values, for mixing meta and cpu tensors in one op,
for the data-dependent ops, and for assigning a meta .grad.
"""
import itertools
import re
import warnings

import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def _describe(r):
    if isinstance(r, (torch.Tensor, gradlab.Tensor)):
        gf = r.grad_fn
        return ("T", repr(r).replace("gradlab", "torch"), str(r.device), r.is_meta, tuple(r.shape), r.stride(),
                str(r.dtype).replace("gradlab", "torch"), r.requires_grad, None if gf is None else type(gf).__name__)
    if isinstance(r, (list, tuple)):
        return (type(r).__name__ if type(r).__name__ in ("list", "tuple") else "named", tuple(map(_describe, r)))
    return re.sub(r" at 0x[0-9a-f]+", "", repr(r).replace("gradlab", "torch"))


def outcome(lib, setup, expr):
    ns = {"torch": lib, "F": lib.nn.functional}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(setup, ns)
        try:
            return _describe(eval(expr, ns))
        except Exception as e:  # noqa: BLE001
            return (type(e).__name__, str(e).replace("gradlab", "torch"))


DTYPES = ["torch.float32", "torch.float64", "torch.int64", "torch.bool"]
SHAPES = ["(2, 3)", "(3,)", "()", "(0, 3)"]
FACTORIES = ["torch.ones({s}, device='meta', dtype={d})", "torch.zeros({s}, device='meta', dtype={d})",
             "torch.empty({s}, device='meta', dtype={d})", "torch.full({s}, 1, device='meta', dtype={d})",
             "torch.ones({s}, dtype={d}).to('meta')", "torch.zeros({s}, dtype={d}).to(device='meta')",
             "torch.ones({s}).to(torch.device('meta'), {d})", "torch.zeros_like(torch.ones({s}, dtype={d}), device='meta')",
             "torch.ones_like(torch.ones({s}, device='meta', dtype={d}))",
             "torch.empty_like(torch.ones({s}, device='meta', dtype={d}))",
             "torch.ones({s}, device='meta', dtype={d}).new_zeros(2)", "torch.ones({s}, device='meta', dtype={d}).new_ones(())"]
FLOAT_FACTORIES = ["torch.rand({s}, device='meta')", "torch.randn({s}, device='meta', dtype=torch.float64)",
                   "torch.rand_like(torch.ones({s}, device='meta'))", "torch.ones({s}, device='meta', requires_grad=True)",
                   "torch.tensor([[1., 2.], [3., 4.]], device='meta')", "torch.tensor(3, device='meta')",
                   "torch.arange(5, device='meta')", "torch.linspace(0, 1, 5, device='meta')", "torch.eye(3, device='meta')",
                   "torch.randint(0, 5, (2,), device='meta')", "torch.empty_strided((2, 3), (1, 2), device='meta')"]


@pytest.mark.parametrize("factory", [f.format(s=s, d=d) for f in FACTORIES for s in SHAPES for d in DTYPES]
                         + [f.format(s=s) for f in FLOAT_FACTORIES for s in SHAPES])
@pytest.mark.parametrize("look", ["m", "str(m)", "m.device", "m.is_meta", "m.is_cpu", "m.get_device()", "m.data_ptr()",
                                  "m.item()", "m.tolist()", "m.numpy()", "bool(m)", "float(m)", "int(m)", "m.cpu()",
                                  "m.to('cpu')", "m.__array__()", "format(m)", "list(m)"])
def test_meta_factories(factory, look):
    setup = f"m = {factory}"
    assert outcome(gradlab, setup, look) == outcome(torch, setup, look), (setup, look)


OPS = ["m + 1", "m * m", "m - 2.5", "m / 2", "m ** 2", "-m", "m.exp()", "m.abs()", "m.sigmoid()", "m.relu()", "m > 0",
       "m == m", "m.sum()", "m.sum(0)", "m.mean(1)", "m.max()", "m.max(0)", "m.min(1)", "m.argmax()", "m.argmin(0)",
       "m.sort()", "m.argsort()", "m.topk(1)", "m.cumsum(0)", "m.prod()", "m.norm()", "m.var()", "m.std(0)",
       "m.logsumexp(0)", "m.softmax(0)", "m.any()", "m.all()", "m.count_nonzero()", "m.t()", "m.T", "m[0]", "m[:, 1:]",
       "m.view(3, 2)", "m.reshape(-1)", "m.permute(1, 0)", "m.unsqueeze(0).expand(2, 2, 3)",
       "m.narrow(1, 0, 2)", "m.chunk(2, 1)", "m.split(1)", "m.unbind(0)", "m.flip(0)", "m.roll(1)",
       "m.repeat(2, 1)", "m.clone()", "m.detach()", "m.contiguous()", "m.T.contiguous()", "m.float()", "m.double()",
       "m.long()", "m.bool()", "m.to(torch.float64)", "m.clamp(0, 1)", "m @ m.t()", "torch.cat([m, m])",
       "torch.stack([m, m], 1)", "torch.where(m > 0, m, 0.)", "torch.einsum('ij,kj->ik', m, m)", "m.masked_fill(m > 0, 1.)",
       "m.index_select(0, torch.tensor([0]))", "m.gather(1, torch.tensor([[0], [1]]))", "m[torch.tensor([0])]",
       "m.add_(1)", "m.mul_(2)", "m.zero_()", "m.fill_(2)", "m.t_()", "m.copy_(torch.ones(2, 3))", "F.relu(m)",
       "F.linear(m, torch.ones(4, 3, device='meta'))", "F.mse_loss(m, m)", "torch.linalg.norm(m)",
       "torch.nn.Linear(3, 4).to('meta')(m)", "torch.nn.Linear(3, 4)(m)",
       # PyTorch's errors: cpu and meta in one op, reading values, data-dependent ops
       "m + torch.ones(2, 3)", "torch.ones(2, 3) + m", "m + torch.tensor(2.)", "torch.cat([m, torch.ones(2, 3)])",
       "torch.stack([m, torch.ones(2, 3)])", "torch.where(m > 0, m, torch.ones(2, 3))", "m == torch.ones(2, 3)",
       "torch.ones(2, 3).copy_(m)", "m.type_as(torch.ones(1))", "m.to(torch.ones(1))", "torch.ones(2, 3).to(m)",
       "m.nonzero()", "m.nonzero(as_tuple=True)", "m[m > 0]", "torch.where(m > 0)", "m.masked_select(m > 0)",
       "m.unique()", "torch.unique_consecutive(m)", "m.equal(m)", "torch.allclose(m, m)", "m.sum().item()",
       "bool(m.sum() > 0)", "m.expand_as(torch.ones(2, 3))"]
SOURCES = ["torch.ones(2, 3, device='meta')", "torch.ones(2, 3).to('meta')", "torch.ones(3, 2, device='meta').t()"]


@pytest.mark.parametrize("source,op", list(itertools.product(SOURCES, OPS)))
def test_meta_ops(source, op):
    setup = f"m = {source}"
    assert outcome(gradlab, setup, op) == outcome(torch, setup, op), (setup, op)


AUTOGRAD = ["(x * 2).sum().backward() or x.grad", "(x * 2).exp().mean().backward() or x.grad",
            "torch.autograd.grad((x ** 2).sum(), x)", "torch.autograd.grad((x ** 2).sum(), x, create_graph=True)",
            "x.exp().sum()", "x * 2", "(x @ x.t()).sum().backward() or x.grad", "x.sin().grad_fn.name()",
            "torch.ones(2, 3, requires_grad=True).to('meta')",
            # .grad assignments: PyTorch's checks, in its order (dtype, device, size)
            "setattr(c, 'grad', torch.ones(2, 3, device='meta'))", "setattr(c, 'grad', torch.ones(3, device='meta'))",
            "setattr(c, 'grad', torch.ones(2, 3, device='meta', dtype=torch.float64))",
            "setattr(x, 'grad', torch.ones(2, 3))", "setattr(x, 'grad', torch.ones(3))",
            "setattr(x, 'grad', torch.ones(2, 3, dtype=torch.float64))",
            "setattr(x, 'grad', torch.ones(2, 3, device='meta')) or x.grad",
            "setattr(c64, 'grad', torch.ones(2, 3, device='meta'))"]


@pytest.mark.parametrize("expr", AUTOGRAD)
def test_meta_autograd(expr):
    setup = ("x = torch.ones(2, 3, device='meta', requires_grad=True); c = torch.ones(2, 3, requires_grad=True); "
             "c64 = torch.ones(2, 3, dtype=torch.float64, requires_grad=True)")
    assert outcome(gradlab, setup, expr) == outcome(torch, setup, expr), expr
