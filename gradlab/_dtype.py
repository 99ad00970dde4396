"""dtypes with PyTorch's names, backed by numpy dtypes.

`gradlab.float32` prints as `torch.float32`, exactly what PyTorch prints, so that
output a student sees in gradlab is the output they will see in PyTorch.
"""
import builtins
import ctypes

import numpy as np

from ._ctype import CType, tp_name
from ._warnings import warn_once


def _no_instances(cls, *args, **kwargs):
    """PyTorch's dtype, layout and memory_format objects are fixed: `torch.dtype()` is refused."""
    raise TypeError(f"cannot create 'torch.{cls.__name__}' instances")


class dtype(metaclass=CType, c_name="torch.dtype"):
    __slots__ = ("name", "np", "is_floating_point", "is_complex", "is_signed", "itemsize", "_category", "_legacy")
    __new__ = _no_instances

    @classmethod
    def _make(cls, name, np_dtype, category, legacy):
        self = object.__new__(cls)
        self.name = name
        self.np = np.dtype(np_dtype)
        self.is_floating_point = category == 2
        self.is_complex = category == 3
        self.is_signed = self.np.kind in "ifc" or category == 3
        self.itemsize = self.np.itemsize
        self._category = category      # 0 bool, 1 integer, 2 floating, 3 complex
        self._legacy = legacy          # 'torch.FloatTensor' style name, used in error messages
        return self

    def __repr__(self):
        return "torch." + self.name

    def __reduce__(self):
        return self.name      # PyTorch's: pickle stores the global's name (gradlab.float32), copies are self

    def to_real(self):
        """complex64 -> float32 (real dtypes are their own real dtype)."""
        return {"complex32": float16, "complex64": float32, "complex128": float64}.get(self.name, self)

    def to_complex(self):
        """float32 -> complex64, float64 -> complex128 (complex dtypes stay)."""
        if self.is_complex:
            return self
        if self.name in _COMPLEX_OF:
            return _COMPLEX_OF[self.name]
        raise RuntimeError(f"Unknown Complex ScalarType for {self._legacy[:-6]}")


bool_ = dtype._make("bool", np.bool_, 0, "BoolTensor")
uint8 = dtype._make("uint8", np.uint8, 1, "ByteTensor")
int8 = dtype._make("int8", np.int8, 1, "CharTensor")
int16 = dtype._make("int16", np.int16, 1, "ShortTensor")
int32 = dtype._make("int32", np.int32, 1, "IntTensor")
int64 = dtype._make("int64", np.int64, 1, "LongTensor")
# PyTorch's "shell" unsigned dtypes: they hold numpy's uint16/32/64 arrays and print, but few ops
# compute with them, and they promote with nothing but floating dtypes
uint16 = dtype._make("uint16", np.uint16, 1, "UInt16Tensor")
uint32 = dtype._make("uint32", np.uint32, 1, "UInt32Tensor")
uint64 = dtype._make("uint64", np.uint64, 1, "UInt64Tensor")
float16 = dtype._make("float16", np.float16, 2, "HalfTensor")
float32 = dtype._make("float32", np.float32, 2, "FloatTensor")
float64 = dtype._make("float64", np.float64, 2, "DoubleTensor")
complex64 = dtype._make("complex64", np.complex64, 3, "ComplexFloatTensor")
complex128 = dtype._make("complex128", np.complex128, 3, "ComplexDoubleTensor")
# PyTorch's ComplexHalf (torch.chalf): two float16s per element. numpy has no complex type of halves, so its
# arrays are structured ones with a float16 `real` and `imag` field: 4 bytes an element, as in PyTorch, and a
# dtype numpy cannot mistake for complex64. Few ops compute with it (PyTorch has few ComplexHalf kernels):
# those that do compute in complex64 and round each part to float16 (ops/complex32.py).
C32 = np.dtype([("real", np.float16), ("imag", np.float16)])
complex32 = dtype._make("complex32", C32, 3, "ComplexHalfTensor")

ALL = (bool_, uint8, int8, int16, int32, int64, float16, float32, float64, complex64, complex128, uint16, uint32,
       uint64, complex32)
_FROM_NP = {d.np: d for d in ALL}
_SHELL = (uint16.np, uint32.np, uint64.np)
_BY_LEGACY = {"torch." + d._legacy: d for d in ALL if d is not complex32}   # (no torch.ComplexHalfTensor)


def from_legacy_name(name):
    """'torch.FloatTensor' -> float32 (None for an unknown name)."""
    return _BY_LEGACY.get(name)


class memory_format(metaclass=CType, c_name="torch.memory_format"):
    """torch.contiguous_format and friends: gradlab's tensors are always strided numpy arrays, so a
    memory_format argument is accepted and changes nothing."""
    __slots__ = ("name",)
    __new__ = _no_instances

    @classmethod
    def _make(cls, name):
        self = object.__new__(cls)
        self.name = name
        return self

    def __repr__(self):
        return "torch." + self.name

    def __reduce__(self):
        return self.name      # pickled and copied as the one global object, as dtypes are


class layout(memory_format, c_name="torch.layout"):
    """torch.strided: every gradlab tensor is a strided (dense) numpy array."""
    __slots__ = ()


strided = layout._make("strided")
contiguous_format = memory_format._make("contiguous_format")
preserve_format = memory_format._make("preserve_format")
channels_last = memory_format._make("channels_last")


def check_format_rank(format, ndim):
    """PyTorch's refusal of channels_last for a tensor that is not 4-d (empty_like, to, *_like, empty)."""
    if format is channels_last and ndim != 4:
        raise RuntimeError("required rank 4 tensor to use channels_last format")


def from_numpy_dtype(np_dtype):
    try:
        return _FROM_NP[np.dtype(np_dtype)]
    except KeyError:
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{np.dtype(np_dtype).type.__name__}. The only supported types "
            "are: float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint64, uint32, "
            "uint16, uint8, and bool."
        ) from None


_PYTHON_TYPES = {float: float64, int: int64, bool: bool_, complex: complex128}


def to_numpy_dtype(d):
    """Accept a gradlab dtype, a numpy dtype or a Python type (float is float64 there, as in PyTorch)."""
    if d is None:
        return None
    if isinstance(d, dtype):
        return d.np
    if isinstance(d, type) and d in _PYTHON_TYPES:
        return _PYTHON_TYPES[d].np
    return np.dtype(d)


def check_dtype_argument(d, function):
    """A factory's `dtype=`: a torch dtype or a Python type (float, int, bool, complex), as a numpy
    dtype; None stays None; anything else is PyTorch's TypeError."""
    if d is None or isinstance(d, dtype):
        return None if d is None else d.np
    if isinstance(d, type) and d in _PYTHON_TYPES:
        return _PYTHON_TYPES[d].np
    t = type(d)
    name = t.__name__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__name__}"
    raise TypeError(f"{function}(): argument 'dtype' must be torch.dtype, not {name}")


def promote_types(a, b):
    """Type promotion between two tensor dtypes of full standing (torch.promote_types)."""
    return from_numpy_dtype(_promote_np(a.np, b.np)) if a is not b else a


def _promote_np(a, b):
    """torch's rule on numpy dtypes: a floating dtype beats any integer or bool dtype unchanged
    (float32 + int64 -> float32, where numpy would say float64); otherwise numpy's table agrees."""
    if a.kind == "V" or b.kind == "V":            # (complex32's structured arrays)
        return _promote_c32(b if a.kind == "V" else a)
    ca, cb = category(a), category(b)
    if (a in _SHELL or b in _SHELL) and a != b and ca != 2 and cb != 2:    # uint16/32/64: floats only
        raise RuntimeError(f"Promotion for uint16, uint32, uint64 types is not supported, attempted to promote "
                           f"{_FROM_NP[a]._legacy[:-6]} and {_FROM_NP[b]._legacy[:-6]}")
    if ca != cb and min(ca, cb) <= 1:
        return a if ca > cb else b
    return np.promote_types(a, b)


def _promote_c32(other):
    """complex32 with `other`: complex32 beats bool, integers and float16; a wider float or complex brings its
    precision (complex32 + float32 is complex64, + float64 complex128)."""
    if other.kind in "Vbiu" or other == np.float16:
        return C32
    return np.promote_types(np.complex64, other)


def category(np_dtype):
    kind = np_dtype.kind
    return 0 if kind == "b" else 1 if kind in "iu" else 2 if kind == "f" else 3


_DEFAULT_FOR_CATEGORY = {0: bool_.np, 1: int64.np, 2: float32.np, 3: complex64.np}


# --- the default dtype (torch.set_default_dtype): what Python floats, float factories and integer
# division give. It lives here, read at run time, so that every layer above sees the current one.

_COMPLEX_OF = {"float16": complex32, "float32": complex64, "float64": complex128}


def get_default():
    """The default floating dtype (torch.get_default_dtype())."""
    return _DEFAULT[0]


def default_np():
    """The default floating dtype as a numpy dtype."""
    return _DEFAULT[0].np


def default_complex_np():
    """The complex dtype that goes with the default one (complex64, or complex128 for float64)."""
    return _COMPLEX_OF[_DEFAULT[0].name].np


def set_default(d):
    """torch.set_default_dtype's checks, then the new default (and the promotion table's entries)."""
    if not isinstance(d, dtype):
        raise TypeError("invalid dtype object: only floating-point types are supported as the default type")
    if d._category != 2:
        raise TypeError("only floating-point types are supported as the default type")
    _DEFAULT[0] = d
    _DEFAULT_FOR_CATEGORY[2] = d.np
    _DEFAULT_FOR_CATEGORY[3] = default_complex_np()


_DEFAULT = [float32]


def result_np_dtype(dims_dtypes, weak_categories):
    """torch's result dtype for an elementwise op.

    `dims_dtypes`: (ndim, numpy dtype) for each tensor operand; `weak_categories`: the categories of
    the Python scalars. Three tiers, strongest first: tensors with ndim >= 1, 0-d tensors, Python
    scalars. A weaker tier only matters when it lifts the category (bool < integer < floating <
    complex): a 0-d tensor then brings its own dtype, a Python scalar the default dtype.
    """
    res = None
    for tier in ([d for n, d in dims_dtypes if n > 0], [d for n, d in dims_dtypes if n == 0]):
        best = None
        for d in tier:
            best = d if best is None else _promote_np(best, d)
        if best is not None and (res is None or category(best) > category(res)):
            res = _combined(res, best)
    for cat in weak_categories:
        if res is None or cat > category(res):
            res = _combined(res, _DEFAULT_FOR_CATEGORY[cat])
    return res


def _combined(higher, lower):
    """PyTorch's combine_categories for a lower tier that lifts the category: a complex one keeps a floating
    higher tier's precision (float64 * 1j is complex128, float16 * 1j complex32)."""
    if lower.kind in "cV" and higher is not None and higher.kind == "f":
        return _COMPLEX_OF[_FROM_NP[higher].name].np
    return lower


# --- complex to real: what PyTorch's copy keeps of a complex value, and its warning

COMPLEX_TO_REAL = ("Casting complex values to real discards the imaginary part (Triggered internally at "
                   "/__w/pytorch/pytorch/aten/src/ATen/native/Copy.cpp:307.)")


def cast(a, dtype):
    """a.astype(dtype) as PyTorch's copy converts: complex to a real dtype keeps the real part, with PyTorch's
    once-per-process warning (complex to bool asks whether it is nonzero, without one)."""
    a, dtype = np.asarray(a), np.dtype(dtype)
    if a.dtype.kind == "V" or dtype.kind == "V":        # complex32 (structured arrays) on either side
        if dtype.kind == "V":
            return c64_to_c32(c32_to_c64(a) if a.dtype.kind == "V" else a)
        a = c32_to_c64(a)
    if a.dtype.kind == "c" and dtype.kind not in "cb":
        if a.size:                     # (PyTorch's copy kernel warns only when it copies something)
            warn_once(COMPLEX_TO_REAL)
        a = a.real
    return through_float(a, dtype).astype(dtype)


_F16, _F64 = np.dtype(np.float16), np.dtype(np.float64)


def through_float(a, dtype):
    """`a` ready for numpy's cast to `dtype`: a double becomes a half through a float, as c10::Half is built
    from a float (1.8247070627860014 is 1.82421875 in PyTorch, the nearest half 1.8251953125 in numpy)."""
    if a.dtype == _F64 and dtype == _F16:
        return a.astype(np.float32)
    return a


def half_scalar(value):
    """A Python float as a half reads it: rounded to a float first (PyTorch converts a Scalar to c10::Half
    through float; numpy's weak scalar rounds straight to half, a last-bit difference near half ties)."""
    return float(np.float32(value)) if -3.4028234663852886e38 <= value <= 3.4028234663852886e38 else value


def scalar_in(value, dtype):
    """A Python number as a numpy scalar of `dtype` (a float meets a half as a float first: half_scalar)."""
    return dtype.type(half_scalar(value) if value.__class__ is float and dtype == _F16 else value)


def real_part(a, dtype):
    """The values of complex `a` that a copy into a real `dtype` keeps (see cast): `a` itself otherwise."""
    a = np.asarray(a)
    if a.dtype.kind == "V" or np.dtype(dtype).kind == "V":     # (complex32 on either side: converted by cast)
        return a if a.dtype == dtype else cast(a, dtype)
    if a.dtype.kind == "c" and np.dtype(dtype).kind not in "cb":
        if a.size:                     # (PyTorch's copy kernel warns only when it copies something)
            warn_once(COMPLEX_TO_REAL)
        a = a.real
    return through_float(a, np.dtype(dtype))

# --- torch.finfo / torch.iinfo: the limits of a dtype, printed as PyTorch prints them ----------------

_DIGITS10 = {"float16": 3, "float32": 6, "float64": 15}
# c10::ScalarType's numbers, the byte a PyTorch dtype or info keeps after its object header
_SCALAR_TYPE = {"uint8": 0, "int8": 1, "int16": 2, "int32": 3, "int64": 4, "float16": 5, "float32": 6, "float64": 7,
                "complex32": 8, "complex64": 9, "complex128": 10, "bool": 11, "uint16": 27, "uint32": 28, "uint64": 29}


def _scalar_type_byte(other):
    """What PyTorch's info comparison (THPDTypeInfo_compare) reads from `other`: it takes any object for an
    info, unchecked, and reads the signed byte just after the object header (16 bytes in CPython). For a dtype
    or an info that is its scalar type; for anything else whatever the object holds there (an int's size, a
    str's length...), which gradlab reads in the same place."""
    if isinstance(other, dtype):
        return _SCALAR_TYPE[other.name]
    if isinstance(other, (finfo, iinfo)):
        return other._scalar_type
    return ctypes.c_int8.from_address(id(other) + 16).value


def _info_eq(self, other):
    """torch.finfo/iinfo ==: the same scalar type byte (finfo(torch.float32) == torch.float32 is True, and so
    is iinfo(torch.int8) == 1)."""
    return self._scalar_type == _scalar_type_byte(other)


def _info_ne(self, other):
    return self._scalar_type != _scalar_type_byte(other)


_NO_TYPE = object()      # (finfo() is the default dtype's; finfo(None) is refused by the parser)


class finfo(metaclass=CType, c_name="torch.finfo"):
    def __init__(self, type=_NO_TYPE):
        type = _DEFAULT[0] if type is _NO_TYPE else _PYTHON_TYPES.get(type, type) if isinstance(type, builtins.type) else type
        if not isinstance(type, dtype):            # (its C parser: finfo(ScalarType type))
            raise TypeError(f"finfo(): argument 'type' (position 1) must be torch.dtype, not "
                            f"{tp_name(builtins.type(type))}")
        if not (type.is_floating_point or type.is_complex):
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle "
                            "'torch.finfo'")
        real = type.to_real()
        info = np.finfo(real.np)
        self.bits = real.itemsize * 8
        self.eps = float(info.eps)
        self.max = float(info.max)
        self.min = float(info.min)
        self.tiny = self.smallest_normal = float(info.tiny)
        self.resolution = 10.0 ** -_DIGITS10[real.name]
        self.dtype = real.name
        self._scalar_type = _SCALAR_TYPE[real.name]

    def __repr__(self):
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
                f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo(metaclass=CType, c_name="torch.iinfo"):
    def __init__(self, type):
        type = _PYTHON_TYPES.get(type, type) if isinstance(type, builtins.type) else type
        if not isinstance(type, dtype):            # (its C parser: iinfo(ScalarType type))
            raise TypeError(f"iinfo(): argument 'type' (position 1) must be torch.dtype, not "
                            f"{tp_name(builtins.type(type))}")
        if type is bool_:
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if not isinstance(type, dtype) or type._category != 1:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'")
        info = np.iinfo(type.np)
        self.bits = type.itemsize * 8
        self.max = int(info.max)
        self.min = int(info.min)
        self.dtype = type.name
        self._scalar_type = _SCALAR_TYPE[type.name]

    def __repr__(self):
        return f"iinfo(min={float(self.min):g}, max={float(self.max):g}, dtype={self.dtype})"


def _no_attribute(self, name):
    raise AttributeError(f"'torch.{type(self).__name__}' object has no attribute '{name}'")


finfo.__getattr__ = iinfo.__getattr__ = _no_attribute
finfo.__eq__, finfo.__ne__, iinfo.__eq__, iinfo.__ne__ = _info_eq, _info_ne, _info_eq, _info_ne
finfo.__hash__ = iinfo.__hash__ = None        # (an __eq__ without a __hash__ in PyTorch: unhashable)
finfo.__module__ = iinfo.__module__ = "gradlab"


# --- complex32: its structured arrays to and from complex64 ------------------------------------------------

EXPERIMENTAL_C32 = ("ComplexHalf support is experimental and many operators don't support it yet. (Triggered "
                    "internally at /__w/pytorch/pytorch/aten/src/ATen/EmptyTensor.cpp:54.)")


def c32_to_c64(a):
    """complex32 values as complex64 (exact: every half is a float)."""
    out = np.empty(a.shape, np.complex64)
    out.real = a["real"]
    out.imag = a["imag"]
    return out


def c64_to_c32(a):
    """A new complex32 array: each part of complex `a` (or real `a`, imaginary 0) rounded to float16 through
    float, as c10::complex<c10::Half> is built. PyTorch warns once per process when it allocates one
    (empty_cpu); every new complex32 array of gradlab is made here."""
    warn_once(EXPERIMENTAL_C32)
    a = np.asarray(a)
    out = np.empty_like(a, dtype=C32)          # (laid out as `a`: a transposed source gives a transposed copy)
    if a.dtype.kind == "c":
        out["real"] = through_float(a.real, _F16)
        out["imag"] = through_float(a.imag, _F16)
    else:
        out["real"] = through_float(a.astype(np.float64) if a.dtype.kind in "biu" else a, _F16)
        out["imag"] = 0
    return out


def as_c64(value):
    """A complex32 array as complex64 (anything else as it is): what gradients of complex32 compute with."""
    return c32_to_c64(value) if value.__class__ is np.ndarray and value.dtype.kind == "V" else value


def name_of(np_dtype):
    """A numpy dtype's PyTorch name without 'torch.' (float32, ..., complex32 for its structured arrays)."""
    return "complex32" if np_dtype.kind == "V" else np_dtype.name


def c32_scalar(value):
    """A Python number written into a complex32 tensor: a 0-d complex32 array (numpy would write a number
    into both parts of a structured element)."""
    return c64_to_c32(np.asarray(complex(value)))
