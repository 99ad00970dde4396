"""torch.special: the special functions under SciPy's names (psi, gammaln, multigammaln, expit, ...).

Each is the op of the table that torch.<name> computes (torch.special.psi(x) is x.digamma(), with
DigammaBackward0), except i1, whose row (ops/unary.py: SpecialI1Backward0) has no other public form:
it is the derivative of i0."""
from ._functions._common import method_form
from ._functions.out import with_out
from ._tensor_core import Tensor
from .creation import tensor
from .ops import OPS

__all__ = ["digamma", "erf", "erfc", "erfinv", "exp2", "expit", "expm1", "gammaln", "i0", "i1", "log1p", "logit",
           "log_softmax", "logsumexp", "multigammaln", "polygamma", "psi", "round", "sinc", "softmax"]


def _as_tensor(input):
    return input if isinstance(input, Tensor) else tensor(input)


def _special(name, method):
    fn = method_form(method)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"torch.special.{name}(input): input.{method}()."
    return with_out(f"special_{name}", fn)


(digamma, erf, erfc, erfinv, exp2, expm1, gammaln, i0, log1p, psi, sinc, expit) = (
    _special(name, method) for name, method in (
        ("digamma", "digamma"), ("erf", "erf"), ("erfc", "erfc"), ("erfinv", "erfinv"), ("exp2", "exp2"),
        ("expm1", "expm1"), ("gammaln", "lgamma"), ("i0", "i0"), ("log1p", "log1p"), ("psi", "digamma"),
        ("sinc", "sinc"), ("expit", "sigmoid")))


def _i1(input):
    """The modified Bessel function of the first kind of order 1 (i0's derivative)."""
    return OPS["special_i1"](_as_tensor(input))


def _logit(input, eps=None):
    return _as_tensor(input).logit(eps)


def _multigammaln(input, p):
    return _as_tensor(input).mvlgamma(p)


def _polygamma(n, input):
    return _as_tensor(input).polygamma(n)


def _round(input, *, decimals=0):
    return _as_tensor(input).round(decimals=decimals)


i1, logit, multigammaln, polygamma, round = (
    with_out(f"special_{fn.__name__[1:]}", fn) for fn in (_i1, _logit, _multigammaln, _polygamma, _round))


def softmax(input, dim, *, dtype=None):
    return _as_tensor(input).softmax(dim, dtype=dtype)


def log_softmax(input, dim, *, dtype=None):
    return _as_tensor(input).log_softmax(dim, dtype=dtype)


logsumexp = with_out("special_logsumexp", lambda input, dim, keepdim=False: _as_tensor(input).logsumexp(dim, keepdim))


# --- torch.special's Cephes and Faddeeva functions, Bessel functions and orthogonal polynomials ---
# (ops/special_math.py: the kernels as ATen's Math.h writes them, and the rows of the differentiable ones)

import functools   # noqa: E402

import numpy as _np   # noqa: E402

from . import _dtype   # noqa: E402
from .autograd.grad_mode import no_grad   # noqa: E402
from .ops import special_math as _sm   # noqa: E402
from ._tensor_methods._common import _lifted   # noqa: E402
from ._tensor_methods.binary import _scalar, _xlogy_scalar_self   # noqa: E402
from .ops.registry import torch_layout as _torch_layout   # noqa: E402

__all__ += ["airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "chebyshev_polynomial_t",
            "chebyshev_polynomial_u", "chebyshev_polynomial_v", "chebyshev_polynomial_w", "entr", "erfcx",
            "gammainc", "gammaincc", "hermite_polynomial_h", "hermite_polynomial_he", "i0e", "i1e",
            "laguerre_polynomial_l", "legendre_polynomial_p", "log_ndtr", "modified_bessel_i0", "modified_bessel_i1",
            "modified_bessel_k0", "modified_bessel_k1", "ndtr", "ndtri", "scaled_modified_bessel_k0",
            "scaled_modified_bessel_k1", "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u",
            "shifted_chebyshev_polynomial_v", "shifted_chebyshev_polynomial_w", "spherical_bessel_j0", "xlog1py",
            "xlogy", "zeta"]


def _from_row(key):
    def fn(input):
        return OPS[key](_as_tensor(input))
    name = key[len("special_"):]
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"torch.special.{name}(input) ({OPS[key].name})."
    return with_out(key, fn)


entr, erfcx, i0e, i1e, ndtri, log_ndtr = (_from_row(f"special_{name}") for name in (
    "entr", "erfcx", "i0e", "i1e", "ndtri", "log_ndtr"))


def _ndtr(input):
    """The normal distribution function, as PyTorch writes it: (1 + erf(x / sqrt 2)) / 2 (MulBackward1 its node)."""
    x = _as_tensor(input)
    if x._data.dtype.kind == "c":       # (erf has no complex kernel)
        raise NotImplementedError(f"\"erf_vml_cpu\" not implemented for '{_dtype.from_numpy_dtype(x._data.dtype)._legacy[:-6]}'")
    if x._data.dtype.kind in "biu":       # (x * M_SQRT1_2 of an integer tensor: the default float dtype)
        x = x.to(_dtype.from_numpy_dtype(_dtype.default_np()))
    # (C++'s Scalar overloads: MulBackward1, AddBackward1)
    return OPS["mul_scalar"](OPS["nn_add_scalar"](OPS["mul_scalar"](x, other=0.70710678118654752440).erf(), other=1),
                             other=0.5)


ndtr = with_out("special_ndtr", _ndtr)


def _binary_special(key):
    """torch.special.<name>(input, other): either may be a Python number (the rows' _scalar_self and
    _scalar_other forms, PyTorch's Backward1 and Backward2)."""
    def fn(input, other):
        if isinstance(input, Tensor):
            if isinstance(other, Tensor):
                return OPS[key](input, other)
            other = _scalar(other)
            return OPS[f"{key}_scalar_other"](_lifted(input, other), other=other)
        if isinstance(other, Tensor):
            input = _scalar(input)
            return OPS[f"{key}_scalar_self"](_lifted(other, input), self_value=input)
        return OPS[key](tensor(input), tensor(other))
    fn.__name__ = fn.__qualname__ = key[len("special_"):]
    return with_out(key, fn)


xlog1py, zeta = _binary_special("special_xlog1py"), _binary_special("special_zeta")


def _xlogy(input, other):
    """torch.xlogy: either may be a Python number (XlogyBackward1 for a number input)."""
    if not isinstance(input, Tensor):
        if isinstance(other, Tensor):
            return _xlogy_scalar_self(input, other)
        input = tensor(input)
    return input.xlogy(other)


def _gammainc(input, other):
    return _as_tensor(input).igamma(other)


def _gammaincc(input, other):
    return _as_tensor(input).igammac(other)


xlogy = with_out("special_xlogy", _xlogy)
gammainc = with_out("special_gammainc", _gammainc)
gammaincc = with_out("special_gammaincc", _gammaincc)


def _result_dtype(name, *operands, no_half=True):
    """The float dtype PyTorch computes a non-differentiable special function in (integers and bools give the
    default float dtype), refusing the dtypes its kernel has no loop for."""
    tensors = [(o._data.ndim, o._data.dtype) for o in operands if isinstance(o, Tensor)]
    scalars = [_dtype.category(_np.asarray(o).dtype) for o in operands if not isinstance(o, Tensor)]
    dtype = _dtype.result_np_dtype(tensors, scalars)
    if dtype.kind in "biu":
        dtype = _dtype.default_np()
    if dtype.kind == "c" or (no_half and dtype == _np.float16):
        raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{_dtype.from_numpy_dtype(dtype)._legacy[:-6]}'")
    return dtype


def _laid_out(out, given):
    """out laid out as PyTorch lays out a pointwise result (as its input: a transposed input, a transposed result)."""
    if out.ndim > 1 and out.size and not given.flags.c_contiguous:
        return _torch_layout(None, _np.ascontiguousarray(out), (given,))
    return out


def _untracked_out(function):
    """A function without a derivative takes out= for inputs that require grad (nothing is recorded)."""
    @functools.wraps(function)
    def fn(*args, **kwargs):
        if kwargs.get("out") is None:
            return function(*args, **kwargs)
        with no_grad():
            return function(*args, **kwargs)
    return fn


def _no_gradient(name, kernel):
    """A special function PyTorch has no derivative for: its result never requires grad."""
    def fn(input):
        x = _as_tensor(input)
        dtype = _result_dtype(name, x)
        return Tensor._make(_laid_out(kernel(x._data.astype(dtype)), x._data))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"torch.special.{name}(input): computed as ATen's {name}_forward (no gradient)."
    return _untracked_out(with_out(f"special_{name}", fn))


(airy_ai, bessel_j0, bessel_j1, bessel_y0, bessel_y1, modified_bessel_i0, modified_bessel_i1, modified_bessel_k0,
 modified_bessel_k1, scaled_modified_bessel_k0, scaled_modified_bessel_k1, spherical_bessel_j0) = (
    _no_gradient(name, getattr(_sm, name)) for name in (
        "airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "modified_bessel_i0", "modified_bessel_i1",
        "modified_bessel_k0", "modified_bessel_k1", "scaled_modified_bessel_k0", "scaled_modified_bessel_k1",
        "spherical_bessel_j0"))


def _polynomial(name, kernel):
    """p_n(input) for a tensor or number input and n (PyTorch's x_scalar and n_scalar overloads); no gradient."""
    def fn(input, n):
        if not isinstance(input, Tensor) and not isinstance(n, Tensor):
            input = tensor(input)
        dtype = _result_dtype(name, input, n)
        x = input._data if isinstance(input, Tensor) else _np.asarray(input)
        degree = n._data if isinstance(n, Tensor) else _np.asarray(n)
        out = _np.asarray(kernel(x.astype(dtype), degree.astype(dtype)), dtype)
        return Tensor._make(_laid_out(out, x if _np.shape(x) == out.shape else degree))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"torch.special.{name}(input, n): computed as ATen's {name}_forward (no gradient)."
    return _untracked_out(with_out(f"special_{name}", fn))


(chebyshev_polynomial_t, chebyshev_polynomial_u, chebyshev_polynomial_v, chebyshev_polynomial_w,
 shifted_chebyshev_polynomial_t, shifted_chebyshev_polynomial_u, shifted_chebyshev_polynomial_v,
 shifted_chebyshev_polynomial_w, hermite_polynomial_h, hermite_polynomial_he, laguerre_polynomial_l,
 legendre_polynomial_p) = (_polynomial(name, getattr(_sm, name)) for name in (
    "chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v", "chebyshev_polynomial_w",
    "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
    "shifted_chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he", "laguerre_polynomial_l",
    "legendre_polynomial_p"))


# PyTorch's argument errors for its C functions special_<name> (gradlab/_argparse), bound here at the end
from . import _argparse as _argparse_, _signatures as _signatures_   # noqa: E402
globals().update(_argparse_.wrapped(globals(), _signatures_.SPECIAL))
