"""Sample inputs of the nn activation and loss rows added with celu, selu, the shrinks, threshold, rrelu, glu and
the margin losses (registered into op_samples.SAMPLES; see op_samples.py). Values keep away from each
function's kinks, where a finite difference is not its gradient."""
import numpy as np
from hypothesis import strategies as st

from op_samples import F, Case, _p3_grad_of, away_from_zero, pick, rng, sample, shape, uniform
from op_samples_loss import _away_from


@sample("celu")
def _celu(draw):
    alpha = draw(st.sampled_from([1.0, 0.5, 2.0]))
    return Case(lambda T, x: F(T).celu(x, alpha), [away_from_zero(draw, shape(draw))])


@sample("celu_inplace")
def _celu_inplace(draw):
    return Case(lambda T, x: F(T).celu(x * 1, 0.5, inplace=True), [away_from_zero(draw, shape(draw))])


@sample("hardshrink")
def _hardshrink(draw):
    return Case(lambda T, x: F(T).hardshrink(x, 0.5), [_away_from(draw, shape(draw), [-0.5, 0.5])])


@sample("hardshrink_backward")
def _hardshrink_backward(draw):
    shp = shape(draw)
    return Case(_p3_grad_of(lambda T, x: F(T).hardshrink(x, 0.5)), [_away_from(draw, shp, [-0.5, 0.5]),
                                                                     uniform(draw, shp)])


@sample("softshrink")
def _softshrink(draw):
    return Case(lambda T, x: F(T).softshrink(x, 0.5), [_away_from(draw, shape(draw), [-0.5, 0.5])])


@sample("softshrink_backward")
def _softshrink_backward(draw):
    shp = shape(draw)
    return Case(_p3_grad_of(lambda T, x: F(T).softshrink(x, 0.5)), [_away_from(draw, shp, [-0.5, 0.5]),
                                                                     uniform(draw, shp)])


@sample("threshold")
def _threshold(draw):
    return Case(lambda T, x: F(T).threshold(x, 0.1, 2.0), [_away_from(draw, shape(draw), [0.1])])


@sample("threshold_inplace")
def _threshold_inplace(draw):
    return Case(lambda T, x: F(T).threshold(x * 1, 0.1, 2.0, inplace=True), [_away_from(draw, shape(draw), [0.1])])


# rrelu in eval (the mean slope) or in training with lower == upper: no random slopes between two calls
@sample("rrelu_with_noise")
def _rrelu(draw):
    fn = pick(draw, [lambda T, x: F(T).rrelu(x, 0.1, 0.3), lambda T, x: F(T).rrelu(x, 0.2, 0.2, True)])
    return Case(fn, [away_from_zero(draw, shape(draw))])


@sample("rrelu_with_noise_inplace")
def _rrelu_inplace(draw):
    return Case(lambda T, x: F(T).rrelu(x * 1, 0.1, 0.3, inplace=True), [away_from_zero(draw, shape(draw))])


@sample("rrelu_with_noise_backward")
def _rrelu_backward(draw):
    shp = shape(draw)
    return Case(_p3_grad_of(lambda T, x: F(T).rrelu(x, 0.1, 0.3)), [away_from_zero(draw, shp), uniform(draw, shp)])


def _glu_shape(draw):
    shp = list(shape(draw, min_dims=1))
    dim = draw(st.integers(-len(shp), len(shp) - 1))
    shp[dim] = 2 * draw(st.integers(1, 2))
    return tuple(shp), dim


@sample("glu")
def _glu(draw):
    shp, dim = _glu_shape(draw)
    return Case(lambda T, x: F(T).glu(x, dim), [uniform(draw, shp)])


@sample("glu_backward")
def _glu_backward(draw):
    shp, dim = _glu_shape(draw)
    out = list(shp)
    out[dim] //= 2
    return Case(lambda T, x, g: T.autograd.grad(F(T).glu(x, dim), x, g, create_graph=True)[0],
                [uniform(draw, shp), uniform(draw, tuple(out))])


@sample("soft_margin_loss")
def _soft_margin(draw):
    shp = shape(draw)
    signs = rng(draw).choice([-1.0, 1.0], shp)
    reduction = draw(st.sampled_from(["mean", "sum", "none"]))
    return Case(lambda T, x: F(T).soft_margin_loss(x, T.tensor(signs, dtype=x.dtype), reduction=reduction),
                [uniform(draw, shp)])


def _margin_inputs(draw):
    """(N, C) scores spaced apart (no score pair at exactly the margin) and a class per sample."""
    n, c = draw(st.integers(1, 3)), draw(st.integers(2, 4))
    grid = np.linspace(-2, 2, 4 * n * c) + 0.013
    x = rng(draw).choice(grid, size=n * c, replace=False).reshape(n, c)
    return x, rng(draw).integers(0, c, n)


@sample("multi_margin_loss")
def _multi_margin(draw):
    x, target = _margin_inputs(draw)
    p = draw(st.sampled_from([1, 2]))
    reduction = draw(st.sampled_from(["mean", "sum", "none"]))
    return Case(lambda T, x: F(T).multi_margin_loss(x, T.tensor(target), p=p, margin=0.7, reduction=reduction),
                [x])


@sample("multilabel_margin_loss")
def _multilabel_margin(draw):
    x, _ = _margin_inputs(draw)
    n, c = x.shape
    labels = [list(rng(draw).permutation(c)[:draw(st.integers(1, c))]) for _ in range(n)]
    target = np.array([row + [-1] * (c - len(row)) for row in labels], dtype=np.int64)
    reduction = draw(st.sampled_from(["mean", "sum", "none"]))
    return Case(lambda T, x: F(T).multilabel_margin_loss(x, T.tensor(target), reduction=reduction), [x])


# PyTorch has no derivative of the margin losses' backward ops: a backward through the gradient raises (raises=)
@sample("multi_margin_loss_backward", raises="derivative for aten::multi_margin_loss_backward is not implemented")
def _multi_margin_backward(draw):
    x, target = _margin_inputs(draw)
    return Case(lambda T, x: T.autograd.grad(F(T).multi_margin_loss(x, T.tensor(target)), x, create_graph=True)[0],
                [x])


@sample("multilabel_margin_loss_backward",
        raises="derivative for aten::multilabel_margin_loss_backward is not implemented")
def _multilabel_margin_backward(draw):
    x, _ = _margin_inputs(draw)
    n, c = x.shape
    target = np.array([[int(rng(draw).integers(c))] + [-1] * (c - 1) for _ in range(n)], dtype=np.int64)
    return Case(lambda T, x: T.autograd.grad(F(T).multilabel_margin_loss(x, T.tensor(target)), x,
                                             create_graph=True)[0], [x])


@sample("soft_margin_loss_backward")
def _soft_margin_backward(draw):
    # soft_margin_loss's gradient (SoftMarginLossBackwardBackward0), differentiated in the input and the incoming
    # gradient
    shp = shape(draw)
    signs = rng(draw).choice([-1.0, 1.0], shp)
    reduction = draw(st.sampled_from(["mean", "sum", "none"]))

    def fn(T, x, g):
        loss = F(T).soft_margin_loss(x, T.tensor(signs, dtype=x.dtype), reduction=reduction)
        return T.autograd.grad(loss, x, g, create_graph=True)[0]
    return Case(fn, [uniform(draw, shp), uniform(draw, shp if reduction == "none" else ())])
