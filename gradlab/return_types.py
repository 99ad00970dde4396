"""gradlab.return_types: the named (values, indices) pairs that `x.max(dim)` and `x.min(dim)` return,
as torch.return_types holds them (`type(x.max(0))` is `gradlab.return_types.max`)."""
from .tensor import _ReturnType

max = _ReturnType.of("max")
min = _ReturnType.of("min")
