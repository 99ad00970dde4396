"""The discrete Fourier transforms, as PyTorch's internal _fft_r2c, _fft_c2c and _fft_c2r (SpectralOps.cpp):
what torch.fft's functions, torch.stft and torch.istft are made of, so their grad_fns are PyTorch's
(FftR2CBackward0, FftC2CBackward0, FftC2RBackward0).

Each transforms the dims listed in `dim` (non-negative, in PyTorch's order: for r2c and c2r the last one is the
halved one). `normalization` is PyTorch's fft_norm_mode: 0 none, 1 by 1/sqrt(n) ("ortho"), 2 by 1/n, n the
product of the transformed sizes. The values come from numpy.fft (pocketfft); PyTorch's CPU build uses MKL's
FFT, so the last bit can differ (the printed text agrees). The gradients are PyTorch's (FunctionsManual.cpp):
each transform's adjoint is the opposite transform with the same normalization."""
import numpy as np

from . import dual
from .registry import op

# numpy's `norm` argument for each normalization mode, for a forward and for an inverse transform
_FORWARD_NORM = {0: "backward", 1: "ortho", 2: "forward"}
_INVERSE_NORM = {0: "forward", 1: "ortho", 2: "backward"}


def _complex_of(x):
    return np.dtype(np.complex128 if x.dtype in (np.float64, np.complex128) else np.complex64)


def _by_stride(x, dims):
    """dims sorted by x's strides, largest first (PyTorch's _sort_dims; Python's sort is stable, as the
    insertion sort std::sort does on so few dims)."""
    return sorted(dims, key=lambda d: -x.strides[d])


def _batch_dims(ndim, dims):
    """The untransformed dims in the order std::partition leaves them (libstdc++'s swaps them from both ends: it
    is not stable, and the order decides between dims of equal strides)."""
    order = list(range(ndim))
    first, last = 0, ndim
    while True:
        while first != last and order[first] not in dims:
            first += 1
        if first == last:
            return order[:first]
        last -= 1
        while first != last and order[last] in dims:
            last -= 1
        if first == last:
            return order[:first]
        order[first], order[last] = order[last], order[first]
        first += 1


def _laid_out(out, x, dims):
    """out laid out as MKL's _exec_fft lays out a transform of x over dims: the untransformed dims first, in the
    order of x's strides, then the transformed ones in the order given, all contiguous in that order."""
    if out.ndim == 0:
        return out
    batch = _by_stride(x, _batch_dims(x.ndim, dims))
    order = batch + list(dims)
    result = np.empty([out.shape[d] for d in order], out.dtype).transpose(np.argsort(order))
    result[...] = out
    return result


def _zero_completed(g, dim, size):
    """g completed with zeros at the end of dim to size: as PyTorch writes it, zeros and a copy into their first
    part (a graph of the gradient then holds CopySlices, as PyTorch's does)."""
    missing = size - g.shape[dim]
    if missing <= 0:
        return g
    if isinstance(g, dual.Tensor):
        full = g.new_zeros(g.shape[:dim] + (size,) + g.shape[dim + 1:])
        full.narrow(dim, 0, g.shape[dim]).copy_(g)
        return full
    full = np.zeros(g.shape[:dim] + (size,) + g.shape[dim + 1:], g.dtype)
    full[(slice(None),) * dim + (slice(0, g.shape[dim]),)] = g
    return full


def _fft_r2c_grad(g, n):
    """fft_r2c_backward: a onesided gradient is completed with zeros (not conjugates: the forward discarded
    that half), then the inverse c2c transform, whose real part is the gradient."""
    full = _zero_completed(g, n.dim[-1], n.last_dim_size) if n.onesided else g
    return dual.call("fft_c2c", full, dim=n.dim, normalization=n.normalization, forward=False).real


def _fft_c2r_grad(g, n):
    """fft_c2r_backward: the r2c transform of the gradient, the entries whose conjugate twin the forward
    filled in (1 .. n - (n // 2 + 1) of the last dim) counted twice (PyTorch's in-place mul_ of a narrow)."""
    last = n.dim[-1]
    gi = dual.call("fft_r2c", g, dim=n.dim, normalization=n.normalization, onesided=True,
                   last_dim_size=g.shape[last])
    double = g.shape[last] - gi.shape[last]
    if double > 0:
        if isinstance(gi, dual.Tensor):
            gi.narrow(last, 1, double).mul_(2)
        else:
            gi[(slice(None),) * last + (slice(1, 1 + double),)] *= 2
    return gi


def _conjugate_fill(half, dims, n):
    """The full transform of a real signal from its onesided one: the upper half of the last dim filled with
    the conjugates of the entries at the reflected indices (-k mod size in every transformed dim), as
    PyTorch's _fft_fill_with_conjugate_symmetry_ fills it."""
    last = dims[-1]
    size = half.shape[last]
    full = np.empty(half.shape[:last] + (n,) + half.shape[last + 1:], half.dtype)
    full[(slice(None),) * last + (slice(0, size),)] = half
    if n > size:
        # entries k = size .. n-1 mirror n-k = n-size .. 1
        mirrored = np.take(half, np.arange(n - size, 0, -1), axis=last)
        for d in dims[:-1]:
            mirrored = np.take(mirrored, (-np.arange(half.shape[d])) % half.shape[d], axis=d)
        full[(slice(None),) * last + (slice(size, n),)] = np.conj(mirrored)
    return full


@op("fft_r2c", "FftR2CBackward0", promote=False, cast_result=False,
    saves=("self",),        # (unused by the formula, but PyTorch saves it: an in-place change is then an error)
    # (the text pads with constant_pad_nd where PyTorch writes zeros and copies grad into them: the same values)
    shows={"self": "_fft_c2c(constant_pad_nd(grad, [0, 0] * (grad.dim() - 1 - dim[-1]) + [0, last_dim_size - "
                   "grad.shape[dim[-1]]]) if onesided else grad, dim, normalization, False).real"},
    self=_fft_r2c_grad)
def fft_r2c(self, dim, normalization, onesided, last_dim_size):
    """The transform of a real signal: n // 2 + 1 frequencies in the last dim of `dim` if onesided, else all
    n, the upper half filled with the conjugates of the lower (as PyTorch fills it)."""
    dims = _by_stride(self, dim[:-1]) + [dim[-1]]
    out = np.fft.rfftn(self, axes=dim, norm=_FORWARD_NORM[normalization]).astype(_complex_of(self), copy=False)
    if not onesided:
        out = _conjugate_fill(out, dim, self.shape[dim[-1]])
    return _laid_out(out, self, dims)


@op("fft_c2c", "FftC2CBackward0", promote=False, cast_result=False,
    shows={"self": "_fft_c2c(grad, dim, normalization, not forward)"},
    self=lambda g, n: dual.call("fft_c2c", g, dim=n.dim, normalization=n.normalization, forward=not n.forward))
def fft_c2c(self, dim, normalization, forward):
    if not dim:                 # (PyTorch's clone)
        return self.copy(order="K")
    if forward:
        out = np.fft.fftn(self, axes=dim, norm=_FORWARD_NORM[normalization])
    else:
        out = np.fft.ifftn(self, axes=dim, norm=_INVERSE_NORM[normalization])
    return _laid_out(out.astype(_complex_of(self), copy=False), self, _by_stride(self, dim))


@op("fft_c2r", "FftC2RBackward0", promote=False, cast_result=False,
    # (the doubled entries: 1 .. n - (n // 2 + 1))
    shows={"self": "_fft_r2c(grad, dim, normalization, True) * tensor([1.] + [2.] * (grad.shape[dim[-1]] - "
                   "grad.shape[dim[-1]] // 2 - 1) + [1.] * (2 * (grad.shape[dim[-1]] // 2) + 1 - "
                   "grad.shape[dim[-1]])).view([-1] + [1] * (grad.dim() - 1 - dim[-1]))"},
    self=_fft_c2r_grad)
def fft_c2r(self, dim, normalization, last_dim_size):
    """The real signal of last_dim_size samples in the last dim of `dim` whose onesided transform is self (the
    inverse transform). PyTorch transforms the other dims first (c2c), then the last (c2r): numpy's order too."""
    last = dim[-1]
    s = [self.shape[d] for d in dim[:-1]] + [last_dim_size]
    out = np.fft.irfftn(self, s=s, axes=dim, norm=_INVERSE_NORM[normalization])
    out = out.astype(_complex_of(self).type(0).real.dtype, copy=False)
    middle = self
    if len(dim) > 1:            # the layout of the c2c step's result decides the order of the batch dims
        middle = _laid_out(np.empty(self.shape, self.dtype), self, _by_stride(self, dim[:-1]))
    return _laid_out(out, middle, [last])
