"""Sample inputs of the Fourier transform rows (registered into op_samples.SAMPLES, see op_samples.py):
fft_r2c, fft_c2c and fft_c2r, reached through torch._fft_r2c, _fft_c2c, _fft_c2r (what torch.fft, stft and istft
are made of), over one to three dims in any order, every normalization and both directions. Complex results
are read as real pairs (view_as_real)."""
from hypothesis import strategies as st

from op_samples import Case, sample, uniform


def _shape_and_dims(draw):
    """A 2-d or 3-d shape and a non-empty list of its dims, in any order (non-negative: PyTorch's internal
    functions take them wrapped, and crash on a negative one)."""
    shape = tuple(draw(st.integers(1, 4)) for _ in range(draw(st.integers(2, 3))))
    dims = draw(st.permutations(range(len(shape))))[:draw(st.integers(1, len(shape)))]
    return shape, dims


@sample("fft_r2c")
def _fft_r2c(draw):
    shape, dims = _shape_and_dims(draw)
    norm, onesided = draw(st.integers(0, 2)), draw(st.booleans())
    return Case(lambda T, x: T.view_as_real(T._fft_r2c(x, dims, norm, onesided)), [uniform(draw, shape)])


@sample("fft_c2c")
def _fft_c2c(draw):
    shape, dims = _shape_and_dims(draw)
    norm, forward = draw(st.integers(0, 2)), draw(st.booleans())
    return Case(lambda T, x, y: T.view_as_real(T._fft_c2c(T.complex(x, y), dims, norm, forward)),
                [uniform(draw, shape), uniform(draw, shape)])


@sample("fft_c2r")
def _fft_c2r(draw):
    shape, dims = _shape_and_dims(draw)
    n = draw(st.integers(1, 6))           # the output's size along the last of dims
    shape = list(shape)
    shape[dims[-1]] = n // 2 + 1
    norm = draw(st.integers(0, 2))
    return Case(lambda T, x, y: T._fft_c2r(T.complex(x, y), dims, norm, n),
                [uniform(draw, tuple(shape)), uniform(draw, tuple(shape))])
