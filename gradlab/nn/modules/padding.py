"""torch/nn/modules/padding.py: the padding layers, each a call of F.pad with its mode.

A layer keeps its padding as torch does: an int repeated to the layer's length (2 per padded dim, last
dim first), a sequence as a tuple."""
from collections.abc import Iterable
from itertools import repeat

from .. import functional as F
from .module import Module

__all__ = ["CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d",
           "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
           "ReplicationPad3d", "ZeroPad1d", "ZeroPad2d", "ZeroPad3d"]


def _ntuple(n):
    """torch.nn.modules.utils._ntuple: any iterable (a string too) as a tuple, anything else repeated n times."""
    def parse(x):
        if isinstance(x, Iterable):
            return tuple(x)
        return tuple(repeat(x, n))
    return parse


# --- circular -----------------------------------------------------------------------------------------

class _CircularPadNd(Module):
    _dims = 1

    def _check_input_dim(self, input):
        if input.dim() not in (self._dims + 1, self._dims + 2):
            raise ValueError(f"expected {self._dims + 1}D or {self._dims + 2}D input (got {input.dim()}D input)")

    def forward(self, input):
        self._check_input_dim(input)
        return F.pad(input, self.padding, "circular")

    def extra_repr(self):
        return f"{self.padding}"


class CircularPad1d(_CircularPadNd):
    _dims = 1

    def __init__(self, padding):
        super().__init__()
        self.padding = _ntuple(2)(padding)


class CircularPad2d(_CircularPadNd):
    _dims = 2

    def __init__(self, padding):
        super().__init__()
        self.padding = _ntuple(4)(padding)


class CircularPad3d(_CircularPadNd):
    _dims = 3

    def __init__(self, padding):
        super().__init__()
        self.padding = _ntuple(6)(padding)


# --- constant and zero --------------------------------------------------------------------------------

class _ConstantPadNd(Module):
    _dims = 1

    def forward(self, input):
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self):
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    _dims = 1

    def __init__(self, padding, value):
        super().__init__()
        self.value = value
        self.padding = _ntuple(2)(padding)


class ConstantPad2d(_ConstantPadNd):
    _dims = 2

    def __init__(self, padding, value):
        super().__init__()
        self.value = value
        self.padding = _ntuple(4)(padding)


class ConstantPad3d(_ConstantPadNd):
    _dims = 3

    def __init__(self, padding, value):
        super().__init__()
        self.value = value
        self.padding = _ntuple(6)(padding)


class ZeroPad1d(ConstantPad1d):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class ZeroPad2d(ConstantPad2d):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class ZeroPad3d(ConstantPad3d):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


# --- reflection and replication -----------------------------------------------------------------------

class _ReflectionPadNd(Module):
    _dims = 1

    def forward(self, input):
        return F.pad(input, self.padding, "reflect")

    def extra_repr(self):
        return f"{self.padding}"


class ReflectionPad1d(_ReflectionPadNd):
    _dims = 1

    def __init__(self, padding):
        super().__init__()
        self.padding = _ntuple(2)(padding)


class ReflectionPad2d(_ReflectionPadNd):
    _dims = 2

    def __init__(self, padding):
        super().__init__()
        self.padding = _ntuple(4)(padding)


class ReflectionPad3d(_ReflectionPadNd):
    _dims = 3

    def __init__(self, padding):
        super().__init__()
        self.padding = _ntuple(6)(padding)


class _ReplicationPadNd(Module):
    _dims = 1

    def forward(self, input):
        return F.pad(input, self.padding, "replicate")

    def extra_repr(self):
        return f"{self.padding}"


class ReplicationPad1d(_ReplicationPadNd):
    _dims = 1

    def __init__(self, padding):
        super().__init__()
        self.padding = _ntuple(2)(padding)


class ReplicationPad2d(_ReplicationPadNd):
    _dims = 2

    def __init__(self, padding):
        super().__init__()
        self.padding = _ntuple(4)(padding)


class ReplicationPad3d(_ReplicationPadNd):
    _dims = 3

    def __init__(self, padding):
        super().__init__()
        self.padding = _ntuple(6)(padding)
