"""gradlab.<fn> functions: core (see gradlab/_functions/__init__.py).

The default dtype (torch.set_default_dtype / get_default_dtype / the deprecated
set_default_tensor_type): the state lives in _dtype.py, where every layer reads it."""
import os

import numpy as np

from .. import _argparse, _dtype, _parallel
from .._tensor_core import Tensor
from ..ops.operands import _number
from ..ops.registry import _SCALAR_CATEGORY
from ..autograd.anomaly_mode import is_anomaly_check_nan_enabled, is_anomaly_enabled, set_anomaly_enabled
from .._tensor_methods._common import _warn_once
from ..creation.legacy import tensortype
from ..serialization import load, save
from .. import _warnings

__all__ = ["get_default_dtype", "set_default_dtype", "set_default_tensor_type", "is_anomaly_enabled",
           "is_anomaly_check_nan_enabled", "set_anomaly_enabled", "save", "load", "get_num_threads", "set_num_threads",
           "get_num_interop_threads", "use_deterministic_algorithms", "are_deterministic_algorithms_enabled",
           "is_deterministic_algorithms_warn_only_enabled", "set_deterministic_debug_mode",
           "get_deterministic_debug_mode", "get_float32_matmul_precision", "set_float32_matmul_precision",
           "result_type", "can_cast"]


def get_default_dtype():
    return _dtype.get_default()


def set_default_dtype(d, /):
    _dtype.set_default(d)


def set_default_tensor_type(t, /):
    d = None
    if isinstance(t, str):
        module, _, name = t.rpartition(".")
        d = _dtype.from_legacy_name(t)
        if d is None:
            if module not in ("torch", "gradlab"):
                raise ModuleNotFoundError(f"No module named '{t.split('.')[0]}'")
            raise AttributeError(f"module 'torch' has no attribute '{name}'")
    _warn_once("torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() "
               "and torch.set_default_device() as alternatives. (Triggered internally at "
               "/__w/pytorch/pytorch/torch/csrc/tensor/python_tensor.cpp:434.)")
    if d is None:
        if not isinstance(t, tensortype):
            raise TypeError("invalid type object: only floating-point types are supported as the default type")
        d = t.dtype
    _dtype.set_default(d)


# --- the setup calls of a reproducible script: threads, determinism, matmul precision. gradlab computes
# with numpy on one path, always deterministically: these keep and report the settings, as PyTorch does.

_SETTINGS = {"deterministic": False, "warn_only": False, "precision": "highest"}


def get_num_threads():
    return _parallel.get_num_threads()


def get_num_interop_threads():
    return _parallel.default_num_interop_threads()


def set_num_threads(*args):
    if len(args) != 1:
        raise TypeError(f"torch.set_num_threads() takes exactly one argument ({len(args)} given)")
    n, = args
    if type(n) is not int and not isinstance(n, np.integer):      # (numpy's integers are ints to PyTorch)
        raise RuntimeError(f"set_num_threads expects an int, but got {_argparse.type_name(n)}")
    n = int(n)
    if n <= 0:
        raise RuntimeError("set_num_threads expects a positive integer")
    _parallel.set_num_threads(n)


def use_deterministic_algorithms(mode, *, warn_only=False):
    for name, value in (("mode", mode), ("warn_only", warn_only)):
        if type(value) is not bool:
            where = "'mode' (position 1)" if name == "mode" else "'warn_only'"
            raise TypeError(f"_set_deterministic_algorithms(): argument {where} must be bool, not "
                            f"{_argparse.type_name(value)}")
    _SETTINGS["deterministic"], _SETTINGS["warn_only"] = mode, warn_only


def are_deterministic_algorithms_enabled():
    return _SETTINGS["deterministic"]


def is_deterministic_algorithms_warn_only_enabled():
    return _SETTINGS["warn_only"]


def set_deterministic_debug_mode(debug_mode):
    if not isinstance(debug_mode, (int, str)):
        raise TypeError(f"debug_mode must be str or int, but got {type(debug_mode)}")
    if isinstance(debug_mode, str):
        modes = {"default": 0, "warn": 1, "error": 2}
        if debug_mode not in modes:
            raise RuntimeError(f"invalid value of debug_mode, expected one of `default`, `warn`, `error`, but got "
                               f"{debug_mode}")
        debug_mode = modes[debug_mode]
    if debug_mode not in (0, 1, 2):
        raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got {debug_mode}")
    use_deterministic_algorithms(debug_mode != 0, warn_only=debug_mode == 1)


def get_deterministic_debug_mode():
    if not _SETTINGS["deterministic"]:
        return 0
    return 1 if _SETTINGS["warn_only"] else 2


def get_float32_matmul_precision():
    return _SETTINGS["precision"]


def set_float32_matmul_precision(precision):
    if not isinstance(precision, str):
        raise RuntimeError(f"set_float32_matmul_precision expects a str, but got {_argparse.type_name(precision)}")
    if precision not in ("highest", "high", "medium"):
        _warnings.warn(f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
                       "setFloat32MatmulPrecision call has no effect. (Triggered internally at "
                       "/__w/pytorch/pytorch/aten/src/ATen/Context.cpp:458.)", UserWarning)
        return
    _SETTINGS["precision"] = precision


def result_type(*operands, **named):
    """The dtype `tensor op other` computes in: PyTorch's promotion of tensors with dims over 0-d tensors over
    Python numbers (a weaker one counts only when it lifts the category: bool < integer < floating < complex).
    (PyTorch's overloads name the two `tensor, other`, `scalar, tensor` or `scalar1, scalar2`; the rule is
    symmetric, so their order does not matter; the argument parser has checked them.)"""
    dims, weak = [], []
    for x in operands + tuple(named.values()):
        if isinstance(x, Tensor):
            dims.append((x._data.ndim, x._data.dtype))
        else:
            weak.append(_SCALAR_CATEGORY[type(_number(x))])
    return _dtype.from_numpy_dtype(_dtype.result_np_dtype(dims, weak))


def can_cast(from_, to):
    """Whether PyTorch's in-place ops may write a `from_` result into a `to` tensor: never complex into real,
    floating into integer, or anything but bool into bool."""
    f, t = from_.np.kind.replace("V", "c"), to.np.kind.replace("V", "c")        # (complex32: kind V)
    return not ((f == "c" and t != "c") or (f == "f" and t in "biu") or (f != "b" and t == "b"))
