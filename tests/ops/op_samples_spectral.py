"""Sample inputs of the Fourier transform rows (registered into op_samples.SAMPLES, see op_samples.py):
fft_r2c, fft_c2c and fft_c2r, reached through torch._fft_r2c, _fft_c2c, _fft_c2r (stft's and istft's
transforms), every normalization and both directions. Complex results are read as real pairs (view_as_real)."""
from hypothesis import strategies as st

from op_samples import Case, sample, uniform


@sample("fft_r2c")
def _fft_r2c(draw):
    n, batch = draw(st.integers(1, 6)), draw(st.integers(1, 3))
    norm, onesided = draw(st.integers(0, 2)), draw(st.booleans())
    return Case(lambda T, x: T.view_as_real(T._fft_r2c(x, [1], norm, onesided)), [uniform(draw, (batch, n))])


@sample("fft_c2c")
def _fft_c2c(draw):
    n, batch = draw(st.integers(1, 6)), draw(st.integers(1, 3))
    norm, forward = draw(st.integers(0, 2)), draw(st.booleans())
    return Case(lambda T, x, y: T.view_as_real(T._fft_c2c(T.complex(x, y), [1], norm, forward)),
                [uniform(draw, (batch, n)), uniform(draw, (batch, n))])


@sample("fft_c2r")
def _fft_c2r(draw):
    n, batch = draw(st.integers(1, 6)), draw(st.integers(1, 3))
    norm = draw(st.integers(0, 2))
    return Case(lambda T, x, y: T._fft_c2r(T.complex(x, y), [1], norm, n),
                [uniform(draw, (batch, n // 2 + 1)), uniform(draw, (batch, n // 2 + 1))])
