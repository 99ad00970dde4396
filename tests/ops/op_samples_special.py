"""Sample inputs of torch.special's differentiable functions added with the Bessel functions and polynomials
(entr, erfcx, i0e, i1e, ndtri, log_ndtr, xlog1py and zeta with their number forms), native_dropout and
norm_except_dim's NormBackward0 (registered into op_samples.SAMPLES; see op_samples.py)."""
from op_samples import Case, away_from_zero, broadcast_pair, const, pick, positive, sample, shape, uniform


def _special(key, values, **options):
    name = key[len("special_"):]

    def draw_case(draw):
        return Case(lambda T, x: getattr(T.special, name)(x), [values(draw, shape(draw))])
    sample(key, **options)(draw_case)


_special("special_entr", lambda draw, s: positive(draw, s, 0.2, 3.0), second_order=True)
_special("special_erfcx", lambda draw, s: uniform(draw, s, -2.0, 2.0), second_order=True)
_special("special_i0e", lambda draw, s: away_from_zero(draw, s, 0.2, 3.0))
_special("special_i1e", lambda draw, s: away_from_zero(draw, s, 0.2, 3.0))
_special("special_ndtri", lambda draw, s: uniform(draw, s, 0.05, 0.95), second_order=True)
_special("special_log_ndtr", lambda draw, s: uniform(draw, s, -3.0, 3.0), second_order=True)


@sample("special_xlog1py")
def _xlog1py(draw):
    sa, sb = broadcast_pair(draw)
    fn = pick(draw, [lambda T, x, y: T.special.xlog1py(x, y), lambda T, x, y: T.special.xlog1py(input=x, other=y)])
    return Case(fn, [uniform(draw, sa), positive(draw, sb, 0.3, 2.0)])


@sample("special_xlog1py_scalar_other")
def _xlog1py_scalar_other(draw):
    return Case(lambda T, x: T.special.xlog1py(x, 1.5), [uniform(draw, shape(draw))])


@sample("special_xlog1py_scalar_self")
def _xlog1py_scalar_self(draw):
    return Case(lambda T, y: T.special.xlog1py(1.5, y), [positive(draw, shape(draw), 0.3, 2.0)])


@sample("special_zeta")
def _zeta(draw):
    # (PyTorch has no derivative for zeta's first argument: only other's is checked)
    sa, sb = broadcast_pair(draw)
    s = uniform(draw, sa, 2.0, 4.0)
    return Case(lambda T, q: T.special.zeta(const(T, s, q), q), [positive(draw, sb, 0.5, 3.0)])


@sample("special_zeta_scalar_self")
def _zeta_scalar_self(draw):
    return Case(lambda T, q: T.special.zeta(2.5, q), [positive(draw, shape(draw), 0.5, 3.0)])


@sample("special_zeta_scalar_other", raises="the derivative for 'zeta' is not implemented.")
def _zeta_scalar_other(draw):
    return Case(lambda T, x: T.special.zeta(x, 2.0), [uniform(draw, shape(draw), 2.0, 4.0)])


@sample("native_dropout_scaled")
def _native_dropout(draw):
    # (the mask is a draw of the default generator, seeded: the same in both libraries)
    return Case(lambda T, x: (T.manual_seed(0), T.native_dropout(x, 0.3, True)[0])[1], [uniform(draw, shape(draw))])


@sample("norm_p_all")
def _norm_p_all(draw):
    return Case(lambda T, x: T.norm_except_dim(x, 2, -1), [away_from_zero(draw, shape(draw, min_dims=1))])


@sample("channel_shuffle_no_derivative", raises="derivative for aten::native_channel_shuffle is not implemented")
def _native_channel_shuffle(draw):
    return Case(lambda T, x: T.native_channel_shuffle(x, 2), [uniform(draw, (2, 4, 3))])
