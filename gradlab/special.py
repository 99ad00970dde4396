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
