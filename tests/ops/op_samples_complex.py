"""Sample inputs of the complex-number ops (registered into op_samples.SAMPLES; see op_samples.py).

The leaves are real (float64), so each sample makes its complex values itself (`x * (1 + 2j)`) and
ends real (`.abs()`, `.angle()`): the gradient flows through the complex path of every formula, and
back to a real leaf as its real part (PyTorch's handle_r_to_c)."""
from op_samples import Case, away_from_zero, pick, positive, sample, shape, uniform  # noqa: F401


@sample("conj")
def _conj(draw):
    fn = pick(draw, [lambda T, x: (x * (1 + 2j)).conj().abs(), lambda T, x: (T.conj(x * (1 - 1j)) * (2 + 1j)).abs(),
                     lambda T, x: (x * (0.5 + 1j) + 1j).conj().angle()])
    return Case(fn, [away_from_zero(draw, shape(draw))])


@sample("_neg_view")
def _neg_view(draw):
    # (`.imag` of conj()'s result: PyTorch records a neg view of its conj bit's resolution)
    fn = pick(draw, [lambda T, x: (x * (1 + 2j)).conj().imag, lambda T, x: (x * (0.5 - 1j) + 1j).conj().imag * 2])
    return Case(fn, [away_from_zero(draw, shape(draw))])


@sample("conj_physical")
def _conj_physical(draw):
    fn = pick(draw, [lambda T, x: (x * (1 + 2j)).conj_physical().abs(),
                     lambda T, x: (T.conj_physical(x * (1 - 1j)) * (2 + 1j)).abs()])
    return Case(fn, [away_from_zero(draw, shape(draw))])


@sample("angle")
def _angle(draw):
    fn = pick(draw, [lambda T, x: (x * (1 + 2j) + 0.5j).angle(), lambda T, x: T.angle(x + 1j * x * x + 0.5j),
                     lambda T, x: x.angle()])
    return Case(fn, [away_from_zero(draw, shape(draw))])
