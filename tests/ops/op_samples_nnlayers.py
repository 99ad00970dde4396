"""Sample inputs of the nn-layer ops (registered into op_samples.SAMPLES; see op_samples.py): upsampling
(nearest, nearest-exact, linear), and their gradients as ops of their own (create_graph)."""
import gradlab
from hypothesis import strategies as st

from op_samples import F, Case, sample, uniform
from op_samples_conv import _conv_case


def _grad_of(T, y, x):
    return T.autograd.grad((y * y).sum(), x, create_graph=True)[0]


def _interpolate_args(draw, nd, linear):
    shp = (draw(st.integers(1, 2)), 2) + tuple(draw(st.integers(1, 4)) for _ in range(nd))
    if draw(st.booleans()):
        kwargs = {"size": tuple(draw(st.integers(1, 6)) for _ in range(nd))}
    else:
        kwargs = {"scale_factor": tuple(draw(st.sampled_from([0.5, 1.0, 1.5, 2.0, 2.5])) for _ in range(nd))}
    if linear:
        kwargs["align_corners"] = draw(st.booleans())
    return shp, kwargs


def _upsample(key, nd, mode):
    linear = "linear" in mode

    def draw_args(draw):
        shp, kwargs = _interpolate_args(draw, nd, linear)
        # (an output size 0 from a small scale is an error: drawn again as a size)
        if "scale_factor" in kwargs and any(int(n * s) < 1 for n, s in zip(shp[2:], kwargs["scale_factor"])):
            kwargs.pop("scale_factor")
            kwargs["size"] = shp[2:]
        return shp, kwargs

    @sample(key, second_order=True)
    def forward(draw):
        shp, kwargs = draw_args(draw)
        return Case(lambda T, x: F(T).interpolate(x, mode=mode, **kwargs), [uniform(draw, shp)])

    @sample(f"{key}_backward", graph_names=False)
    def backward(draw):
        shp, kwargs = draw_args(draw)
        return Case(lambda T, x: _grad_of(T, F(T).interpolate(x, mode=mode, **kwargs), x), [uniform(draw, shp)])


for _nd in (1, 2, 3):
    _upsample(f"upsample_nearest{_nd}d", _nd, "nearest")
    _upsample(f"_upsample_nearest_exact{_nd}d", _nd, "nearest-exact")
_upsample("upsample_linear1d", 1, "linear")
_upsample("upsample_bilinear2d", 2, "bilinear")
_upsample("upsample_trilinear3d", 3, "trilinear")


# --- pixel and channel shuffles -----------------------------------------------------------------------

@sample("pixel_shuffle", second_order=True)
def _pixel_shuffle(draw):
    r = draw(st.integers(1, 3))
    shp = draw(st.sampled_from([(), (2,)])) + (r * r * draw(st.integers(1, 2)), draw(st.integers(1, 3)), 2)
    fn = draw(st.sampled_from([lambda T, x: F(T).pixel_shuffle(x, r), lambda T, x: T.nn.PixelShuffle(r)(x)]))
    return Case(fn, [uniform(draw, shp)])


@sample("pixel_unshuffle", second_order=True)
def _pixel_unshuffle(draw):
    r = draw(st.integers(1, 3))
    shp = draw(st.sampled_from([(), (2,)])) + (draw(st.integers(1, 2)), r * draw(st.integers(1, 2)), r)
    return Case(lambda T, x: T.pixel_unshuffle(x, r), [uniform(draw, shp)])


@sample("channel_shuffle", second_order=True)
def _channel_shuffle(draw):
    g = draw(st.integers(1, 3))
    shp = (draw(st.integers(1, 2)), g * draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    return Case(lambda T, x: F(T).channel_shuffle(x, g), [uniform(draw, shp)])


# --- unfold and fold ----------------------------------------------------------------------------------

def _fold_args(draw):
    k = (draw(st.integers(1, 2)), draw(st.integers(1, 3)))
    d, p, s = draw(st.integers(1, 2)), draw(st.integers(0, 1)), draw(st.integers(1, 2))
    hw = tuple(draw(st.integers(d * (kk - 1) + 1, 5)) for kk in k)
    blocks = [(n + 2 * p - d * (kk - 1) - 1) // s + 1 for n, kk in zip(hw, k)]
    return k, d, p, s, hw, blocks


@sample("im2col", second_order=True)
def _im2col(draw):
    k, d, p, s, hw, _ = _fold_args(draw)
    shp = draw(st.sampled_from([(), (2,)])) + (2,) + hw
    return Case(lambda T, x: F(T).unfold(x, k, d, p, s), [uniform(draw, shp)])


@sample("col2im", second_order=True)
def _col2im(draw):
    k, d, p, s, hw, blocks = _fold_args(draw)
    shp = draw(st.sampled_from([(), (2,)])) + (2 * k[0] * k[1], blocks[0] * blocks[1])
    return Case(lambda T, x: T.nn.Fold(hw, k, d, p, s)(x), [uniform(draw, shp)])


# --- transposed convolution -----------------------------------------------------------------------------

def _conv_transpose_case(draw):
    dim = draw(st.sampled_from([1, 2]))
    groups = draw(st.sampled_from([1, 1, 2]))
    cin, cout = groups * draw(st.integers(1, 2)), groups * draw(st.integers(1, 2))
    k = tuple(draw(st.integers(1, 3)) for _ in range(dim))
    s, d, p = draw(st.integers(1, 2)), draw(st.integers(1, 2)), draw(st.integers(0, 1))
    o = draw(st.integers(0, max(s, d) - 1))
    size = tuple(draw(st.integers(3, 4)) for _ in range(dim))     # (an output of at least one position)
    batch = draw(st.sampled_from([(), (1,), (2,)]))
    arrays = [uniform(draw, batch + (cin,) + size), uniform(draw, (cin, cout // groups) + k)]
    if draw(st.booleans()):
        arrays.append(uniform(draw, (cout,)))
    name = f"conv_transpose{dim}d"

    def fn(T, x, w, b=None):
        return getattr(F(T), name)(x, w, b, stride=s, padding=p, output_padding=o, groups=groups, dilation=d)
    return fn, arrays


@sample("conv_transpose", second_order=True)
def _conv_transpose(draw):
    return Case(*_conv_transpose_case(draw))


@sample("convolution_backward", graph_names=False)
def _convolution_backward(draw):
    # a convolution's (or a transposed one's) gradients as one op (create_graph: ConvolutionBackwardBackward0),
    # with the incoming gradient requiring grad too, so that every input slot of the backward op is differentiated
    transposed = draw(st.booleans())
    fn, arrays = _conv_transpose_case(draw) if transposed else _conv_case(draw)
    out = tuple(fn(gradlab, *[gradlab.tensor(a) for a in arrays]).shape)     # (the gradient's shape)

    def back(T, *args):
        *xs, g = args
        return T.autograd.grad(fn(T, *xs), xs, g, create_graph=True)
    return Case(back, arrays + [uniform(draw, out)])


# --- bilinear -------------------------------------------------------------------------------------------

@sample("_trilinear", second_order=True)
def _trilinear(draw):
    lead = draw(st.sampled_from([(), (1,), (3,), (2, 2)]))
    i, j, o = draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    fn = draw(st.sampled_from([lambda T, a, b, w: F(T).bilinear(a, b, w), lambda T, a, b, w: T.bilinear(a, b, w)]))
    return Case(fn, [uniform(draw, lead + (i,)), uniform(draw, lead + (j,)), uniform(draw, (o, i, j))])


# --- scaled dot-product attention's softmax -------------------------------------------------------------

@sample("_safe_softmax", second_order=True)
def _safe_softmax(draw):
    lead = draw(st.sampled_from([(), (2,), (1, 2)]))
    length, source, e = draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    causal = draw(st.booleans())
    # (value's last dim differs from query's: PyTorch's math path, the one with _safe_softmax)
    return Case(lambda T, q, k, v: F(T).scaled_dot_product_attention(q, k, v, is_causal=causal),
                [uniform(draw, lead + (length, e)), uniform(draw, lead + (source, e)),
                 uniform(draw, lead + (source, e + 1))])


@sample("_scaled_dot_product_flash_attention_for_cpu", graph_names=False)
def _flash_attention(draw):
    batch, heads = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    length, source, e = draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    causal = draw(st.booleans())
    scale = draw(st.sampled_from([None, 0.5, -1.0]))
    return Case(lambda T, q, k, v: F(T).scaled_dot_product_attention(q, k, v, is_causal=causal and scale is None,
                                                                     scale=scale),
                [uniform(draw, (batch, heads, length, e)), uniform(draw, (batch, heads, source, e)),
                 uniform(draw, (batch, heads, source, e))])


@sample("mul_scalar", second_order=True)
def _mul_scalar(draw):
    lead = draw(st.sampled_from([(), (2,)]))
    e = draw(st.integers(1, 3))
    scale = draw(st.sampled_from([None, 0.5, -2.0]))
    return Case(lambda T, q, k, v: F(T).scaled_dot_product_attention(q, k, v, scale=scale),
                [uniform(draw, lead + (2, e)), uniform(draw, lead + (3, e)), uniform(draw, lead + (3, e + 1))])


# --- max unpooling --------------------------------------------------------------------------------------

@sample("max_unpool2d", second_order=True)
def _max_unpool2d(draw):
    k = draw(st.integers(1, 2))
    shp = (draw(st.integers(1, 2)), 2, 2 * draw(st.integers(1, 2)), 2 * draw(st.integers(1, 2)))
    pooled_from = uniform(draw, shp)        # (a constant: the positions of its maxima are the indices)

    def fn(T, x):
        _, indices = F(T).max_pool2d(T.tensor(pooled_from), k, return_indices=True)
        return F(T).max_unpool2d(x, indices, k)
    return Case(fn, [uniform(draw, shp[:2] + (shp[2] // k, shp[3] // k))])
