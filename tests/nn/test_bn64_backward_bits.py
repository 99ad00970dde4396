"""float64 batch norm's backward on (N, C, L) and (N, C, H, W) inputs, bit for bit against live torch.

Those inputs take PyTorch's batch_norm_cpu_backward_contiguous_impl: per (n, c) row, sums over vectors of
4 doubles, then k = dotp * invstd * invstd / N and one fused multiply-add per element (see
gradlab/ops/normalization.py's _vec4_sums64). The training fuzzer's _BN64_BACKWARD seeds differed there.
Shapes, values, modes and options are generated; the input, weight and bias gradients are compared."""
import random

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

import gradlab  # noqa: E402

R = random.Random(14)


def _case(r):
    n, c = r.randint(1, 6), r.randint(1, 5)
    image = [r.randint(1, 9) for _ in range(r.choice([1, 2]))]
    if n * int(np.prod(image)) < 2 or int(np.prod(image)) == 1:
        image[0] += 1          # (image size 1 is the channels-last kernel; one value per channel can't train)
    return dict(shape=(n, c, *image), seed=r.randrange(10**6), scale=r.choice([1.0, 3.0, 0.01]),
                shift=r.choice([0.0, 0.5, -20.0]), affine=r.random() < 0.8, training=r.random() < 0.8,
                momentum=r.choice([0.1, 0.5]))


def _run(lib, case):
    lib.set_default_dtype(lib.float64)
    try:
        rng = np.random.default_rng(case["seed"])
        shape = case["shape"]
        x = lib.tensor(rng.standard_normal(shape) * case["scale"] + case["shift"], requires_grad=True)
        dy = lib.tensor(rng.standard_normal(shape))
        layer = (lib.nn.BatchNorm1d if len(shape) == 3 else lib.nn.BatchNorm2d)(
            shape[1], affine=case["affine"], momentum=case["momentum"])
        if case["affine"]:
            with lib.no_grad():
                layer.weight.copy_(lib.tensor(rng.standard_normal(shape[1])))
                layer.bias.copy_(lib.tensor(rng.standard_normal(shape[1])))
        with lib.no_grad():                    # running statistics for eval mode: a training pass first
            layer(lib.tensor(rng.standard_normal(shape) * 2 + 1))
        layer.train(case["training"])
        (layer(x) * dy).sum().backward()
        out = {"input": x.grad}
        if case["affine"]:
            out.update(weight=layer.weight.grad, bias=layer.bias.grad)
        return {k: v.detach().numpy() for k, v in out.items()}
    finally:
        lib.set_default_dtype(lib.float32)


def _differ(case):
    t, g = _run(torch, case), _run(gradlab, case)
    return [k for k in t if t[k].tobytes() != g[k].tobytes() or t[k].shape != g[k].shape]


CASES = [_case(R) for _ in range(160)]


@pytest.mark.parametrize("block", range(4))
def test_bn64_backward_bits(block):
    bad = [(c["shape"], c["training"], _differ(c)) for c in CASES[block::4]]
    bad = [b for b in bad if b[2]]
    assert not bad, f"{len(bad)} of {len(CASES[block::4])} differ: {bad[:5]}"


def test_comparison_can_fail():
    """A gradient off by one ulp is seen (the comparison is of bits)."""
    case = CASES[0]
    t = _run(torch, case)["input"]
    g = _run(gradlab, case)["input"].copy()
    g.flat[0] = np.nextafter(g.flat[0], np.inf)
    assert t.tobytes() != g.tobytes()
