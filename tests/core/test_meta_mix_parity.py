"""The meta device beside the cpu (issue 14): which functions PyTorch lets mix a meta and a cpu tensor (those
whose kernels check no devices: the call reaches the meta kernel, whose result takes one argument's device) and
which refuse (its exact message); and that a meta tensor's random numbers are never drawn: the cpu generator does
not advance. Generated cases run under gradlab and under live torch; the outcomes (the result's device, shape and
dtype, or the exception's type and message; the cpu numbers drawn next) must be the same.
"""
import itertools

import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

# `A` and `B` make tensors of the given sizes, one on the meta device and one on the cpu, in both orders
CALLS = [
    "F.linear(A(2, 3), B(4, 3))", "F.linear(A(3), B(4, 3))", "F.linear(A(5, 2, 3), B(4, 3))",
    "F.linear(A(2, 3), B(3))", "F.linear(A(2, 3), B(4, 3), torch.tensor(1.))", "F.linear(A(2, 3), B(4, 3), B(4))",
    "F.linear(A(2, 3), A(4, 3), B(4))", "torch.mm(A(2, 3), B(3, 4))", "torch.matmul(A(2, 3), B(3, 4))",
    "torch.matmul(A(5, 2, 3), B(3, 4))", "torch.matmul(A(2, 3), B(3))", "torch.matmul(A(3), B(3, 2))",
    "torch.bmm(A(5, 2, 3), B(5, 3, 4))", "A(2, 3) @ B(3, 4)", "A(2, 3).mm(B(3, 4))", "A(2, 3).matmul(B(3, 4))",
    "torch.mv(A(2, 3), B(3))", "torch.outer(A(2), B(3))", "torch.dot(A(2), B(2))",
    "F.conv1d(A(1, 1, 5), B(1, 1, 2))", "F.conv2d(A(1, 1, 3, 3), B(1, 1, 2, 2), B(1))",
    "F.conv2d(A(1, 1, 3, 3), B(1, 1, 2, 2))", "F.embedding(torch.tensor([0]), A(3, 2))",
    "torch.nn.Linear(3, 4, bias=False, device=DEVICE_B)(A(2, 3))",
    "A(2) + B(2)", "A(2) * B(2)", "A(2) + torch.tensor(1.)", "torch.tensor(1.) + A(2)", "torch.cat([A(2), B(2)])",
    "torch.stack([A(2), B(2)])", "torch.where(B(2) > 0, A(2), B(2))", "F.mse_loss(A(2), B(2))",
    "F.layer_norm(A(2, 3), (3,), B(3), B(3))", "torch.lerp(A(2), B(2), 0.5)", "torch.maximum(A(2), B(2))",
    "A(2) == B(2)", "A(3).index_select(0, torch.tensor([0]))", "A(3)[torch.tensor([0])]",
]
ORDERS = [("meta", "cpu"), ("cpu", "meta")]
MIX_CASES = list(itertools.product(CALLS, ORDERS))

RANDOM_ON_META = [
    "torch.rand(2, device='meta')", "torch.randn(2, 3, device='meta')", "torch.randint(5, (2,), device='meta')",
    "torch.randperm(5, device='meta')", "torch.rand(2, device='meta', generator=g)",
    "torch.bernoulli(torch.ones(2, device='meta') * 0.5)", "torch.normal(torch.zeros(2, device='meta'), 1.)",
    "torch.rand_like(torch.zeros(2, device='meta'))", "torch.randn_like(torch.zeros(2, device='meta'))",
    "torch.randint_like(torch.zeros(2, device='meta'), 5)", "torch.zeros(2, device='meta').uniform_()",
    "torch.zeros(2, device='meta').normal_()", "torch.zeros(2, device='meta').random_()",
    "torch.zeros(2, device='meta').exponential_()", "torch.zeros(2, device='meta').bernoulli_(0.5)",
    "F.dropout(torch.ones(4, device='meta'))", "torch.multinomial(torch.ones(4, device='meta'), 2)",
    "torch.multinomial(torch.ones(4, device='meta'), 2, generator=g)",
    "torch.zeros(2, device='meta').uniform_(generator=g)",
]


def mix_outcome(module, call, order):
    def make(device):
        return lambda *size: module.ones(*size, device=device)
    namespace = {"torch": module, "F": module.nn.functional, "A": make(order[0]), "B": make(order[1]),
                 "DEVICE_B": order[1]}
    try:
        r = eval(call, namespace)
    except Exception as error:  # noqa: BLE001 - the point is to compare whatever is raised
        return f"{type(error).__name__}: {error}"
    return str(r.device), tuple(r.shape), str(r.dtype)


@pytest.mark.parametrize("call,order", MIX_CASES)
def test_meta_and_cpu_mixed_as_torch(call, order):
    assert mix_outcome(gradlab, call, order) == mix_outcome(torch, call, order)


def random_outcome(module, call, seed):
    module.manual_seed(seed)
    g = module.Generator().manual_seed(seed + 1)
    namespace = {"torch": module, "F": module.nn.functional, "g": g}
    try:
        r = eval(call, namespace)
        made = str(r.device), tuple(r.shape), str(r.dtype)
    except Exception as error:  # noqa: BLE001
        made = f"{type(error).__name__}: {error}"
    # the numbers drawn next, from the default generator and from g: as if nothing had been drawn
    return made, module.rand(3).tolist(), module.randn(2).tolist(), module.rand(2, generator=g).tolist()


@pytest.mark.parametrize("call,seed", list(itertools.product(RANDOM_ON_META, (0, 7))))
def test_meta_draws_no_random_numbers(call, seed):
    assert random_outcome(gradlab, call, seed) == random_outcome(torch, call, seed)
