"""gradlab.return_types: the named tuples that `x.max(dim)`, `x.sort()`, `x.topk(k)`, ... return, as
torch.return_types holds them (`type(x.max(0))` is `gradlab.return_types.max`)."""
from ._tensor_methods.reductions import _MinMax as aminmax  # noqa: F401
from .tensor import _ReturnType

max = _ReturnType.of("max")
min = _ReturnType.of("min")
(sort, topk, kthvalue, median, nanmedian, mode, cummax, cummin) = (
    _ReturnType.of(name) for name in ("sort", "topk", "kthvalue", "median", "nanmedian", "mode", "cummax", "cummin"))
from ._tensor_methods.linalg import _LinalgSvdResult as linalg_svd, _SvdResult as svd  # noqa: E402,F401
from ._tensor_methods.sorting import _Histogram as histogram  # noqa: E402,F401
from ._tensor_methods.pointwise import _Frexp as frexp  # noqa: E402,F401
