"""Sample inputs of the bicubic upsampling rows (registered into op_samples.SAMPLES, see op_samples.py):
upsample_bicubic2d (F.interpolate(mode="bicubic")) and its gradient as an op of its own (create_graph),
with and without align_corners, from sizes and from scale factors."""
from hypothesis import strategies as st

from op_samples import F, Case, sample, uniform
from op_samples_nnlayers import _grad_of, _interpolate_args


def _args(draw):
    shp, kwargs = _interpolate_args(draw, 2, True)
    if "scale_factor" in kwargs and any(int(n * s) < 1 for n, s in zip(shp[2:], kwargs["scale_factor"])):
        kwargs.pop("scale_factor")
        kwargs["size"] = shp[2:]
    return shp, kwargs


@sample("upsample_bicubic2d", second_order=True)
def _bicubic(draw):
    shp, kwargs = _args(draw)
    return Case(lambda T, x: F(T).interpolate(x, mode="bicubic", **kwargs), [uniform(draw, shp)])


@sample("upsample_bicubic2d_backward", graph_names=False)
def _bicubic_backward(draw):
    shp, kwargs = _args(draw)
    return Case(lambda T, x: _grad_of(T, F(T).interpolate(x, mode="bicubic", **kwargs), x), [uniform(draw, shp)])
