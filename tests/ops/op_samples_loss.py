"""Sample inputs of the loss ops (registered into op_samples.SAMPLES; see op_samples.py): huber and smooth l1
losses, pairwise_distance's norm, and the activations in ops/nn.py."""
import numpy as np
from hypothesis import strategies as st

from op_samples import F, Case, pick, rng, sample, shape, uniform  # noqa: F401


def _away_from(draw, shp, points, lo=-3.0, hi=3.0, gap=0.05):
    """Uniform values at least `gap` from each of `points` (the kinks of a piecewise function)."""
    x = uniform(draw, shp, lo, hi)
    for p in points:
        near = np.abs(x - p) < gap
        x = np.where(near, x + np.sign(x - p + 1e-12) * 2 * gap, x)
    return x


@sample("huber_loss")
def _huber(draw):
    shp = shape(draw)
    delta = draw(st.sampled_from([1.0, 0.5, 2.0]))
    reduction = draw(st.sampled_from(["mean", "sum", "none"]))
    target = uniform(draw, shp)
    diff = _away_from(draw, shp, [-delta, delta])
    return Case(lambda T, a, b: F(T).huber_loss(a, b, reduction=reduction, delta=delta), [target + diff, target])


@sample("smooth_l1_loss")
def _smooth_l1(draw):
    shp = shape(draw)
    beta = draw(st.sampled_from([1.0, 0.5, 2.0]))
    reduction = draw(st.sampled_from(["mean", "sum", "none"]))
    target = uniform(draw, shp)
    diff = _away_from(draw, shp, [-beta, beta])
    fn = pick(draw, [lambda T, a, b: F(T).smooth_l1_loss(a, b, reduction=reduction, beta=beta),
                     lambda T, a, b: T.nn.SmoothL1Loss(beta=beta, reduction=reduction)(a, b)])
    return Case(fn, [target + diff, target])


@sample("norm_p")
def _pairwise(draw):
    shp = shape(draw, min_dims=1)
    p = draw(st.sampled_from([2.0, 1.0, 3.0]))
    keepdim = draw(st.booleans())
    a, b = uniform(draw, shp), uniform(draw, shp)
    b = np.where(np.abs(a - b) < 0.1, b + 0.3, b)       # (|x| is not differentiable at 0: p=1)
    return Case(lambda T, x, y: F(T).pairwise_distance(x, y, p=p, keepdim=keepdim), [a, b])


@sample("nn_add_scalar")
def _add_scalar(draw):
    shp = shape(draw, min_dims=1)
    return Case(lambda T, x, y: F(T).pairwise_distance(x, y, eps=0.5), [uniform(draw, shp), uniform(draw, shp)])


@sample("hardtanh")
def _hardtanh(draw):
    fn = pick(draw, [lambda T, x: F(T).hardtanh(x), lambda T, x: F(T).hardtanh(x, -2.0, 2.5),
                     lambda T, x: F(T).relu6(x * 3), lambda T, x: T.nn.Hardtanh(-0.5, 0.5)(x)])
    # (away from every bound the spellings use: relu6 scales x by 3, so 0 and 2 are kinks too)
    return Case(fn, [_away_from(draw, shape(draw), [-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 2.5], gap=0.08)])


def _hardtanh_backward_fn(T, x, g):
    # hardtanh's gradient is recorded as an op of its own with create_graph (differentiable in g)
    return T.autograd.grad(F(T).hardtanh(x, -1.0, 1.5), x, g, create_graph=True)[0]


@sample("hardtanh_backward", graph_names=False)
def _hardtanh_backward(draw):
    shp = shape(draw)
    return Case(_hardtanh_backward_fn, [_away_from(draw, shp, [-1.0, 1.5], gap=0.08), uniform(draw, shp)])


@sample("log_sigmoid")
def _log_sigmoid(draw):
    return Case(lambda T, x: F(T).logsigmoid(x), [uniform(draw, shape(draw), -4, 4)])


@sample("mish")
def _mish(draw):
    return Case(lambda T, x: F(T).mish(x), [uniform(draw, shape(draw), -4, 4)])


@sample("hardswish")
def _hardswish(draw):
    return Case(lambda T, x: F(T).hardswish(x), [_away_from(draw, shape(draw), [-3.0, 3.0], lo=-5, hi=5)])


@sample("hardsigmoid")
def _hardsigmoid(draw):
    return Case(lambda T, x: F(T).hardsigmoid(x), [_away_from(draw, shape(draw), [-3.0, 3.0], lo=-5, hi=5)])


@sample("prelu")
def _prelu(draw):
    shp = shape(draw, min_dims=2, max_dims=4)
    channels = draw(st.sampled_from([1, shp[1]]))
    x = _away_from(draw, shp, [0.0], gap=0.05)
    return Case(lambda T, a, w: F(T).prelu(a, w), [x, rng(draw).uniform(0.05, 0.5, (channels,))])


@sample("prelu_kernel_backward", graph_names=False)
def _prelu_kernel_backward(draw):
    # prelu's gradients as one op (create_graph: PreluKernelBackwardBackward0), with the incoming gradient
    # requiring grad too, so that every input slot of the backward op is differentiated
    shp = shape(draw, min_dims=2, max_dims=4)
    channels = draw(st.sampled_from([1, shp[1]]))
    wrt = draw(st.sampled_from(["both", "self", "weight"]))
    x = _away_from(draw, shp, [0.0], gap=0.05)

    def fn(T, a, w, g):
        inputs = {"both": (a, w), "self": (a,), "weight": (w,)}[wrt]
        return T.autograd.grad(F(T).prelu(a, w), inputs, g, create_graph=True)
    return Case(fn, [x, rng(draw).uniform(0.05, 0.5, (channels,)), uniform(draw, shp)])


# --- the losses' and activations' backward ops: reached through a gradient's own graph (create_graph), with the
# incoming gradient requiring grad too, so that every input slot of the backward op is differentiated
def _backward_of(loss, wrt):
    """The gradient of loss(a, b) for input `wrt` (0: a, 1: b) against a cotangent g, as a function of a, b, g."""
    return lambda T, a, b, g: T.autograd.grad(loss(T, a, b), (a, b)[wrt], g, create_graph=True)[0]


def _loss_backward_case(draw, name, param, kinks):
    shp = shape(draw)
    value = draw(st.sampled_from([1.0, 0.5, 2.0]))
    reduction = draw(st.sampled_from(["mean", "sum", "none"]))
    target = uniform(draw, shp)
    diff = _away_from(draw, shp, [-value, value] if kinks else [])
    kwargs = {"reduction": reduction, **({param: value} if param else {})}
    fn = _backward_of(lambda T, a, b: getattr(F(T), name)(a, b, **kwargs), draw(st.sampled_from([0, 1])))
    return Case(fn, [target + diff, target, uniform(draw, shp if reduction == "none" else ())])


@sample("mse_loss_backward")
def _mse_loss_backward(draw):
    return _loss_backward_case(draw, "mse_loss", None, False)


@sample("huber_loss_backward")
def _huber_loss_backward(draw):
    return _loss_backward_case(draw, "huber_loss", "delta", True)


@sample("smooth_l1_loss_backward")
def _smooth_l1_loss_backward(draw):
    return _loss_backward_case(draw, "smooth_l1_loss", "beta", True)


def _activation_backward_case(draw, name, kinks, lo=-5, hi=5):
    shp = shape(draw)
    return Case(lambda T, x, g: T.autograd.grad(getattr(F(T), name)(x), x, g, create_graph=True)[0],
                [_away_from(draw, shp, kinks, lo=lo, hi=hi), uniform(draw, shp)])


@sample("log_sigmoid_backward")
def _log_sigmoid_backward(draw):
    return _activation_backward_case(draw, "logsigmoid", [], -4, 4)


@sample("hardswish_backward")
def _hardswish_backward(draw):
    return _activation_backward_case(draw, "hardswish", [-3.0, 3.0])


# PyTorch has no derivative of hardsigmoid_backward: a backward through it raises (raises=)
@sample("hardsigmoid_backward", raises="derivative for aten::hardsigmoid_backward is not implemented")
def _hardsigmoid_backward(draw):
    shp = shape(draw)
    return Case(lambda T, x: T.autograd.grad(F(T).hardsigmoid(x).sum(), x, create_graph=True)[0],
                [_away_from(draw, shp, [-3.0, 3.0], lo=-5, hi=5)])


@sample("binary_cross_entropy_backward")
def _binary_cross_entropy_backward(draw):
    # binary_cross_entropy's gradient for its input (BinaryCrossEntropyBackwardBackward0), differentiated in the
    # input, the target and the incoming gradient; with a weight or without
    shp = shape(draw)
    reduction = draw(st.sampled_from(["mean", "sum", "none"]))
    weight = rng(draw).uniform(0.5, 2.0, shp) if draw(st.booleans()) else None

    def loss(T, a, b):
        w = None if weight is None else T.tensor(weight, dtype=a.dtype)
        return F(T).binary_cross_entropy(a, b, weight=w, reduction=reduction)
    return Case(_backward_of(loss, 0), [uniform(draw, shp, 0.05, 0.95), uniform(draw, shp, 0.05, 0.95),
                                        uniform(draw, shp if reduction == "none" else ())])
