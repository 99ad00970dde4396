"""torch.fft: the discrete Fourier transforms, as PyTorch writes them (aten/src/ATen/native/SpectralOps.cpp).

Every transform is one of the three internal rows of ops/spectral.py (_fft_c2c, _fft_r2c, _fft_c2r: their
grad_fns FftC2CBackward0, FftR2CBackward0, FftC2RBackward0), with what PyTorch puts around them, so a graph
holds PyTorch's nodes: a signal cut to `n` is a slice (SliceBackward0), one lengthened is zero-padded
(ConstantPadNdBackward0), an integer or real input of a complex transform is converted (ToCopyBackward0), and
the transforms MKL cannot do directly are conjugates of the ones it can (ifft of a real signal is the conjugate
of its forward transform, scaled: ConjBackward0).

`norm` names which direction is scaled: "backward" (the default: the inverse by 1/n), "forward" (the forward
by 1/n) or "ortho" (both by 1/sqrt(n)).
"""
import functools

import numpy as np

from . import _dtype
from ._functions.out import _write
from ._tensor_core import Tensor, _wrap_dim
from .autograd import grad_mode
from .creation import arange, empty
from .ops import OPS

_FUNCTIONS = ("fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn", "irfftn",
              "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn", "fftfreq", "rfftfreq", "fftshift", "ifftshift")
# (PyTorch's own list: it exports Tensor, and leaves out the 2-d and n-d Hermitian transforms)
__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn", "irfftn",
           "hfft", "ihfft", "fftfreq", "rfftfreq", "fftshift", "ifftshift", "Tensor"]

# PyTorch's fft_norm_mode: 0 no scaling, 1 by 1/sqrt(n), 2 by 1/n
_NONE, _BY_ROOT_N, _BY_N = 0, 1, 2


def _norm_from_string(norm, forward):
    if norm is None or norm == "backward":
        return _NONE if forward else _BY_N
    if norm == "forward":
        return _BY_N if forward else _NONE
    if norm == "ortho":
        return _BY_ROOT_N
    raise RuntimeError(f'Invalid normalization mode: "{norm}"')


def _type_name(t):
    """c10's name of t's dtype, as PyTorch's messages print it (Float, ComplexFloat, Half)."""
    return t.dtype._legacy[:-len("Tensor")]


def _promote(t, require_complex=False):
    """promote_tensor_fft: integers and bools become the default float dtype; on the CPU only float32 and
    float64 (and their complex types) have a transform; a complex transform of a real signal converts it."""
    if t.is_complex():
        return t
    dtype = t.dtype if t.is_floating_point() else _dtype.from_numpy_dtype(_dtype.default_np())
    if dtype not in (_dtype.float32, _dtype.float64):
        raise RuntimeError(f"Unsupported dtype {dtype._legacy[:-len('Tensor')]}")
    if require_complex:
        dtype = _dtype.complex64 if dtype == _dtype.float32 else _dtype.complex128
    return t if dtype == t.dtype else t.to(dtype)


def _wrap(dim, ndim):
    """maybe_wrap_dim without wrap_scalar: a 0-d tensor has no dim to transform."""
    if ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    return _wrap_dim(dim, ndim)


def _check_points(n):
    if n < 1:
        raise RuntimeError(f"Invalid number of data points ({n}) specified")


def _resize(x, dims, sizes):
    """resize_fft_input: each transformed dim cut (a slice) or zero-padded (one constant_pad_nd for all) to its
    size; a size of -1 leaves the dim as it is."""
    pad = [0] * (2 * x.dim())
    must_pad = False
    for d, size in zip(dims, sizes):
        if size == -1:
            continue
        if x.shape[d] < size:
            must_pad = True
            pad[len(pad) - 2 * d - 1] = size - x.shape[d]
        if x.shape[d] > size:
            x = x[(slice(None),) * d + (slice(0, size),)]
    return OPS["constant_pad_nd"](x, pad=tuple(pad), value=0) if must_pad else x


def _transformable(x):
    """MKL refuses an empty batch (with the error PyTorch passes on)."""
    if x.numel() == 0:
        raise RuntimeError("MKL FFT error: Intel oneMKL DFTI ERROR: Inconsistent configuration parameters")
    return x


def _c2c(x, dims, normalization, forward):
    if dims:
        _transformable(x)
    return OPS["fft_c2c"](x, dim=tuple(dims), normalization=normalization, forward=forward)


def _r2c(x, dims, normalization, onesided):
    if not (x.is_floating_point()):
        raise RuntimeError(f"Only supports floating-point dtypes, but found: {_type_name(x)}")
    _transformable(x)
    return OPS["fft_r2c"](x, dim=tuple(dims), normalization=normalization, onesided=onesided,
                          last_dim_size=x.shape[dims[-1]])


def _c2r(x, dims, normalization, last_dim_size):
    _transformable(x)
    return OPS["fft_c2r"](x, dim=tuple(dims), normalization=normalization, last_dim_size=last_dim_size)


# --- the one-dimensional transforms --------------------------------------------------------------------------

def _fft_c2c_1d(name, input, n, dim, norm, forward):
    d = _wrap(dim, input.dim())
    n = input.shape[d] if n is None else n
    _check_points(n)
    input = _resize(input, [d], [n])
    return _c2c(input, [d], _norm_from_string(norm, forward), forward)


def _fft_r2c_1d(name, input, n, dim, norm, forward, onesided):
    if input.is_complex():
        raise RuntimeError(f"{name} expects a real input tensor, but got {_type_name(input)}")
    input = _promote(input)
    d = _wrap(dim, input.dim())
    n = input.shape[d] if n is None else n
    _check_points(n)
    input = _resize(input, [d], [n])
    out = _r2c(input, [d], _norm_from_string(norm, forward), onesided)
    # (MKL has no inverse r2c: the inverse of a real signal is the conjugate of its forward transform)
    return out if forward else out.conj()


def _fft_c2r_1d(name, input, n, dim, norm, forward):
    input = _promote(input, require_complex=True)
    d = _wrap(dim, input.dim())
    given = n is not None
    n = 2 * (input.shape[d] - 1) if n is None else n
    _check_points(n)
    if given:
        input = _resize(input, [d], [n // 2 + 1])
    normalization = _norm_from_string(norm, forward)
    if forward:                 # (hfft: the c2r transform of the conjugate)
        input = input.conj()
    return _c2r(input, [d], normalization, n)


def fft(input, n=None, dim=-1, norm=None):
    """The discrete Fourier transform of input along dim (n samples: cut or zero-padded to n if given)."""
    if input.is_complex():
        return _fft_c2c_1d("fft", input, n, dim, norm, True)
    return _fft_r2c_1d("fft", input, n, dim, norm, True, False)


def ifft(input, n=None, dim=-1, norm=None):
    """The inverse discrete Fourier transform of input along dim."""
    if input.is_complex():
        return _fft_c2c_1d("ifft", input, n, dim, norm, False)
    return _fft_r2c_1d("ifft", input, n, dim, norm, False, False)


def rfft(input, n=None, dim=-1, norm=None):
    """The transform of a real signal: only the n // 2 + 1 non-negative frequencies (the others are their
    conjugates)."""
    return _fft_r2c_1d("rfft", input, n, dim, norm, True, True)


def irfft(input, n=None, dim=-1, norm=None):
    """The real signal of n samples (default 2 * (input.size(dim) - 1)) whose rfft is input."""
    return _fft_c2r_1d("irfft", input, n, dim, norm, False)


def hfft(input, n=None, dim=-1, norm=None):
    """The transform of a Hermitian-symmetric signal given by its first half: a real result of n samples."""
    return _fft_c2r_1d("hfft", input, n, dim, norm, True)


def ihfft(input, n=None, dim=-1, norm=None):
    """The inverse of hfft: the first half of the inverse transform of a real signal."""
    return _fft_r2c_1d("ihfft", input, n, dim, norm, False, True)


# --- the n-dimensional transforms ----------------------------------------------------------------------------

def _as_list(value):
    """An int[1] argument: one int stands for a list of one."""
    return None if value is None else [value] if isinstance(value, int) else list(value)


def _shape_and_dims(input, s, dim):
    """canonicalize_fft_shape_and_dim_args: the dims (wrapped, unique) and each one's size. With s only, the
    last len(s) dims; with neither, all of them; a size of -1 is the dim's own."""
    s, dim = _as_list(s), _as_list(dim)
    ndim = input.dim()
    dims = None
    if dim is not None:
        dims = [_wrap(d, ndim) for d in dim]
        if len(set(dims)) != len(dims):
            raise RuntimeError("FFT dims must be unique")
    if s is not None:
        if dim is not None and len(dim) != len(s):
            raise RuntimeError("When given, dim and shape arguments must have the same length")
        if len(s) > ndim:
            raise RuntimeError(f"Got shape with {len(s)} values but input tensor only has {ndim} dimensions.")
        if dims is None:
            dims = list(range(ndim - len(s), ndim))
        shape = [input.shape[d] if n == -1 else n for d, n in zip(dims, s)]
    elif dims is None:
        dims, shape = list(range(ndim)), list(input.shape)
    else:
        shape = [input.shape[d] for d in dims]
    for n in shape:
        _check_points(n)
    return shape, dims


def _c2r_shape_and_dims(name, input, s, dim):
    """canonicalize_fft_c2r_shape_and_dim_args: also the output's size along the last dim (default
    2 * (size - 1)); the input is then cut or padded to its half, last_dim_size // 2 + 1."""
    shape, dims = _shape_and_dims(input, s, dim)
    if not shape:
        raise RuntimeError(f"{name} must transform at least one axis")
    s = _as_list(s)
    last_dim_size = 2 * (input.shape[dims[-1]] - 1) if s is None or s[-1] == -1 else shape[-1]
    _check_points(last_dim_size)
    shape[-1] = last_dim_size // 2 + 1
    return shape, dims, last_dim_size


def _fftn_c2c(name, input, s, dim, norm, forward):
    shape, dims = _shape_and_dims(input, s, dim)
    x = _resize(_promote(input, require_complex=True), dims, shape)
    return _c2c(x, dims, _norm_from_string(norm, forward), forward)


def _rfftn(name, input, s, dim, norm):
    if input.is_complex():
        raise RuntimeError(f"{name} expects a real-valued input tensor, but got {_type_name(input)}")
    shape, dims = _shape_and_dims(input, s, dim)
    if not shape:
        raise RuntimeError(f"{name} must transform at least one axis")
    x = _resize(_promote(input), dims, shape)
    return _r2c(x, dims, _norm_from_string(norm, True), True)


def _irfftn(name, input, s, dim, norm):
    shape, dims, last_dim_size = _c2r_shape_and_dims(name, input, s, dim)
    x = _resize(_promote(input, require_complex=True), dims, shape)
    return _c2r(x, dims, _norm_from_string(norm, False), last_dim_size)


def _hfftn(name, input, s, dim, norm):
    """The c2c transform over all dims but the last, then the c2r of its conjugate over the last."""
    shape, dims, last_dim_size = _c2r_shape_and_dims(name, input, s, dim)
    x = _resize(_promote(input, require_complex=True), dims, shape)
    normalization = _norm_from_string(norm, True)
    if len(dims) > 1:
        x = _c2c(x, dims[:-1], normalization, True)
    return _c2r(x.conj(), dims[-1:], normalization, last_dim_size)


def _ihfftn(name, input, s, dim, norm):
    """The onesided r2c transform over the last dim, conjugated, then the inverse c2c over the others."""
    shape, dims = _shape_and_dims(input, s, dim)
    if not shape:
        raise RuntimeError(f"{name} must transform at least one axis")
    x = _resize(_promote(input), dims, shape)
    normalization = _norm_from_string(norm, False)
    out = _r2c(x, dims[-1:], normalization, True)
    if len(dims) == 1:
        return out.conj()
    return _c2c(out.conj_physical(), dims[:-1], normalization, False)


def fft2(input, s=None, dim=(-2, -1), norm=None):
    """fftn over the last two dims."""
    return _fftn_c2c("fft2", input, s, dim, norm, True)


def ifft2(input, s=None, dim=(-2, -1), norm=None):
    return _fftn_c2c("ifft2", input, s, dim, norm, False)


def fftn(input, s=None, dim=None, norm=None):
    """The n-dimensional transform over dim (default: the last len(s) dims, or all)."""
    return _fftn_c2c("fftn", input, s, dim, norm, True)


def ifftn(input, s=None, dim=None, norm=None):
    return _fftn_c2c("ifftn", input, s, dim, norm, False)


def rfft2(input, s=None, dim=(-2, -1), norm=None):
    return _rfftn("rfftn", input, s, dim, norm)


def rfftn(input, s=None, dim=None, norm=None):
    """The n-dimensional transform of a real signal, halved along the last of dim."""
    return _rfftn("rfftn", input, s, dim, norm)


def irfft2(input, s=None, dim=(-2, -1), norm=None):
    return _irfftn("irfftn", input, s, dim, norm)


def irfftn(input, s=None, dim=None, norm=None):
    """The inverse of rfftn: a real signal (the last of dim 2 * (size - 1) long unless s says)."""
    return _irfftn("irfftn", input, s, dim, norm)


def hfft2(input, s=None, dim=(-2, -1), norm=None):
    return _hfftn("hfftn", input, s, dim, norm)


def hfftn(input, s=None, dim=None, norm=None):
    return _hfftn("hfftn", input, s, dim, norm)


def ihfft2(input, s=None, dim=(-2, -1), norm=None):
    return _ihfftn("ihfftn", input, s, dim, norm)


def ihfftn(input, s=None, dim=None, norm=None):
    return _ihfftn("ihfftn", input, s, dim, norm)


# --- frequencies and shifts ----------------------------------------------------------------------------------

def _frequencies(name, count, right, n, d, dtype, layout, device, requires_grad):
    """arange(count), its entries from `right` on replaced by -(n // 2) .. -1, times 1 / (n * d) (PyTorch
    multiplies by the reciprocal, in the result's dtype)."""
    out = empty(count, dtype=dtype, layout=layout, device=device)
    if not (out.is_floating_point() or out.is_complex()):
        raise RuntimeError(f"{name} requires a floating point or complex dtype")
    out = arange(count, dtype=out.dtype, device=device)
    if right is not None and right < count:
        out[right:] = arange(-(n // 2), 0, dtype=out.dtype, device=device)
    with np.errstate(divide="ignore", invalid="ignore"):     # (d = 0: C++'s inf, not Python's ZeroDivisionError)
        out.mul_(float(np.float64(1.0) / np.float64(n * d)))
    return out.requires_grad_(requires_grad)


def _c_half(n):
    """n / 2 as C++ divides integers (towards zero)."""
    return -(-n // 2) if n < 0 else n // 2


def fftfreq(n, d=1.0, *, dtype=None, layout=None, device=None, pin_memory=False, requires_grad=False):
    """The sample frequencies of a transform of n samples d apart: 0, 1, ..., -(n // 2), ..., -1 over n * d."""
    return _frequencies("fftfreq", n, (n + 1) // 2, n, d, dtype, layout, device, requires_grad)


def rfftfreq(n, d=1.0, *, dtype=None, layout=None, device=None, pin_memory=False, requires_grad=False):
    """The non-negative frequencies of fftfreq (rfft's): 0 .. n // 2 over n * d."""
    return _frequencies("rfftfreq", _c_half(n) + 1, None, n, d, dtype, layout, device, requires_grad)


def _shift(input, dim, amount):
    dims = list(range(input.dim())) if dim is None else [_wrap_dim(d, input.dim()) for d in _as_list(dim)]
    return input.roll([amount(input.shape[d]) for d in dims], dims)


def fftshift(input, dim=None):
    """The zero frequency moved to the centre: each dim rolled by size // 2 (RollBackward0)."""
    return _shift(input, dim, lambda n: n // 2)


def ifftshift(input, dim=None):
    """The inverse of fftshift: each dim rolled by (size + 1) // 2."""
    return _shift(input, dim, lambda n: (n + 1) // 2)


# --- out= ----------------------------------------------------------------------------------------------------
# PyTorch checks the out tensor's kind first, then computes (every argument check), then writes with the internal
# op's _out form, whose autograd check names it; an inverse of a real signal writes with conj_physical_out, which
# has none.

def _internal(name, input, args, kwargs):
    """The internal function whose _out form writes name's result."""
    real = isinstance(input, Tensor) and not input.is_complex()
    if name in ("fft", "rfft", "rfft2", "rfftn") and real:
        return "_fft_r2c"
    if name in ("ifft", "ihfft") and real:
        return None
    if name in ("irfft", "hfft", "irfft2", "irfftn", "hfft2", "hfftn"):
        return "_fft_c2r"
    if name in ("ihfft2", "ihfftn"):
        params = dict(zip(("s", "dim"), args[1:3]), **{k: v for k, v in kwargs.items() if k in ("s", "dim")})
        default = (-2, -1) if name == "ihfft2" else None
        return "_fft_c2c" if len(_shape_and_dims(input, params.get("s"), params.get("dim", default))[1]) > 1 else None
    return "_fft_c2c"


def _out_form(fn, complex_out, message_name=None):
    name = fn.__name__
    shown = message_name or name

    @functools.wraps(fn)
    def function(*args, out=None, **kwargs):
        if out is None:
            return fn(*args, **kwargs)
        if not isinstance(out, Tensor):
            raise TypeError(f"fft_{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
        if complex_out and not out.is_complex():
            raise RuntimeError(f"{shown} expects a complex output tensor, but got {_type_name(out)}")
        if not complex_out and not out.is_floating_point():
            raise RuntimeError(f"{shown} expects a floating point output tensor, but got {_type_name(out)}")
        with grad_mode.no_grad():
            result = fn(*args, **kwargs)
        input = args[0] if args else kwargs.get("input")
        internal = _internal(name, input, args, kwargs)
        if internal and grad_mode.is_grad_enabled() and (input.requires_grad or out.requires_grad):
            raise RuntimeError(f"{internal}(): functions with out=... arguments don't support automatic "
                               "differentiation, but one of the arguments requires grad.")
        return _write(out, result, f"fft_{name}")
    return function


fft, ifft, rfft, ihfft = (_out_form(f, True) for f in (fft, ifft, rfft, ihfft))
irfft, hfft = (_out_form(f, False) for f in (irfft, hfft))
fftn, ifftn, rfftn, ihfftn = (_out_form(f, True) for f in (fftn, ifftn, rfftn, ihfftn))
fft2, ifft2, rfft2, ihfft2 = (_out_form(f, True, f.__name__[:-1] + "n") for f in (fft2, ifft2, rfft2, ihfft2))
irfftn, hfftn = (_out_form(f, False) for f in (irfftn, hfftn))
irfft2, hfft2 = (_out_form(f, False, f.__name__[:-1] + "n") for f in (irfft2, hfft2))


def _frequencies_out(fn):
    @functools.wraps(fn)
    def function(n, d=1.0, *, out=None, dtype=None, **kwargs):
        if out is None:
            return fn(n, d, dtype=dtype, **kwargs)
        result = fn(n, d, dtype=out.dtype, **kwargs)
        return _write(out, result, "arange")        # (PyTorch's arange_out writes it, with arange's warning)
    return function


fftfreq, rfftfreq = _frequencies_out(fftfreq), _frequencies_out(rfftfreq)

# PyTorch's functions are its C functions fft_<name>: Python's own TypeErrors (an unknown keyword) name them so
for _name in _FUNCTIONS:
    globals()[_name].__qualname__ = f"fft_{_name}"
del _name

# PyTorch's argument errors for its C functions fft_<name> (gradlab/_argparse), bound here at the end
from . import _argparse as _argparse_, _signatures as _signatures_   # noqa: E402
globals().update(_argparse_.wrapped(globals(), _signatures_.FFT))
