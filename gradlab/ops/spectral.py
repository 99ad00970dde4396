"""The discrete Fourier transforms over the last dim, as PyTorch's internal _fft_r2c, _fft_c2c and _fft_c2r
(SpectralOps.cpp): what torch.stft and torch.istft are made of, so their grad_fns are PyTorch's
(FftR2CBackward0, FftC2CBackward0, FftC2RBackward0).

`normalization` is PyTorch's fft_norm_mode: 0 none, 1 by 1/sqrt(n) ("ortho"), 2 by 1/n. The values come from
numpy.fft (pocketfft); PyTorch's CPU build uses MKL's FFT, so the last bit can differ (the printed text agrees).
The gradients are PyTorch's (FunctionsManual.cpp): each transform's adjoint is the opposite transform with the
same normalization."""
import numpy as np

from . import dual
from .registry import op

# numpy's `norm` argument for each normalization mode, for a forward and for an inverse transform
_FORWARD_NORM = {0: "backward", 1: "ortho", 2: "forward"}
_INVERSE_NORM = {0: "forward", 1: "ortho", 2: "backward"}


def _complex_of(x):
    return np.dtype(np.complex128 if x.dtype in (np.float64, np.complex128) else np.complex64)


def _fft_r2c_grad(g, n):
    """fft_r2c_backward: a onesided gradient is completed with zeros (not conjugates: the forward discarded
    that half), then the inverse c2c transform, whose real part is the gradient."""
    full = g
    missing = n.last_dim_size - g.shape[-1]
    if n.onesided and missing > 0:
        full = dual.call("constant_pad_nd", g, pad=(0, missing), value=0)
    return dual.call("fft_c2c", full, normalization=n.normalization, forward=False).real


def _fft_c2r_grad(g, n):
    """fft_c2r_backward: the r2c transform of the gradient, the entries whose conjugate twin the forward
    filled in counted twice."""
    gi = dual.call("fft_r2c", g, normalization=n.normalization, onesided=True, last_dim_size=g.shape[-1])
    double = g.shape[-1] - gi.shape[-1]
    if double > 0:
        scale = np.ones(gi.shape[-1], dual.data(gi).real.dtype)
        scale[1:1 + double] = 2
        gi = gi * dual.like(gi, scale)
    return gi


@op("fft_r2c", "FftR2CBackward0", promote=False, cast_result=False,
    saves=("self",),        # (unused by the formula, but PyTorch saves it: an in-place change is then an error)
    shows={"self": "_fft_c2c(constant_pad_nd(grad, (0, last_dim_size - grad.shape[-1])) if onesided else grad, "
                   "[-1], normalization, False).real"},
    self=_fft_r2c_grad)
def fft_r2c(self, normalization, onesided, last_dim_size):
    """The transform of a real signal: n_fft // 2 + 1 frequencies if onesided, else all n, the upper half
    filled with the conjugates of the lower (as PyTorch fills it)."""
    out = np.fft.rfft(self, axis=-1, norm=_FORWARD_NORM[normalization]).astype(_complex_of(self), copy=False)
    if onesided:
        return out
    n = self.shape[-1]
    full = np.empty(self.shape[:-1] + (n,), out.dtype)
    half = out.shape[-1]
    full[..., :half] = out
    full[..., half:] = np.conj(out[..., 1:n - half + 1][..., ::-1])
    return full


@op("fft_c2c", "FftC2CBackward0", promote=False, cast_result=False,
    shows={"self": "_fft_c2c(grad, [-1], normalization, not forward)"},
    self=lambda g, n: dual.call("fft_c2c", g, normalization=n.normalization, forward=not n.forward))
def fft_c2c(self, normalization, forward):
    if forward:
        out = np.fft.fft(self, axis=-1, norm=_FORWARD_NORM[normalization])
    else:
        out = np.fft.ifft(self, axis=-1, norm=_INVERSE_NORM[normalization])
    return out.astype(_complex_of(self), copy=False)


@op("fft_c2r", "FftC2RBackward0", promote=False, cast_result=False,
    # (the doubled entries: 1 .. n - (n // 2 + 1))
    shows={"self": "_fft_r2c(grad, [-1], normalization, True) * tensor([1.] + [2.] * (grad.shape[-1] - "
                   "grad.shape[-1] // 2 - 1) + [1.] * (2 * (grad.shape[-1] // 2) + 1 - grad.shape[-1]))"},
    self=_fft_c2r_grad)
def fft_c2r(self, normalization, last_dim_size):
    """The real signal of last_dim_size samples whose onesided transform is self (the inverse transform)."""
    out = np.fft.irfft(self, n=last_dim_size, axis=-1, norm=_INVERSE_NORM[normalization])
    return out.astype(_complex_of(self).type(0).real.dtype, copy=False)
