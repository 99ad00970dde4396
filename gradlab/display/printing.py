"""Tensor repr text, byte-identical to PyTorch's.

Everything here follows the printing rules in the parity reference
(torch-parity.md section 1).  The public entry points are:

* ``set_printoptions`` / ``get_printoptions`` / ``printoptions`` - the global
  options, with torch's semantics (profiles, ``sci_mode`` always assigned);
* ``format_tensor`` - the full ``tensor(...)`` text for a numpy array.

Only Python and numpy are used.  Numbers are rendered with Python's own
``format`` on the exact double value of each element, never with numpy's
printer, because torch does the same and the two round differently.
"""

import contextlib
import math

import numpy as np

from .. import _dtype

__all__ = [
    "set_printoptions",
    "get_printoptions",
    "printoptions",
    "format_tensor",
    "torch_dtype_name",
]

# --------------------------------------------------------------------------
# Print options
# --------------------------------------------------------------------------

_PROFILES = {
    "default": dict(precision=4, threshold=1000, edgeitems=3, linewidth=80),
    "short": dict(precision=2, threshold=1000, edgeitems=2, linewidth=80),
    "full": dict(precision=4, threshold=math.inf, edgeitems=3, linewidth=80),
}

_OPTS = dict(_PROFILES["default"], sci_mode=None)


def set_printoptions(
    precision=None,
    threshold=None,
    edgeitems=None,
    linewidth=None,
    profile=None,
    sci_mode=None,
):
    """Change the global print options, exactly like ``torch.set_printoptions``.

    The profile is applied first, then explicit arguments override it.
    Arguments left as ``None`` keep their value - except ``sci_mode``, which
    torch always assigns, so omitting it resets it to ``None`` (automatic).
    An unknown profile name is ignored, as torch does.
    """
    if profile in _PROFILES:
        _OPTS.update(_PROFILES[profile])
    explicit = dict(
        precision=precision, threshold=threshold, edgeitems=edgeitems, linewidth=linewidth
    )
    for name, value in explicit.items():
        if value is not None:
            _OPTS[name] = value
    _OPTS["sci_mode"] = sci_mode


def get_printoptions():
    """Return a copy of the current options (same keys as torch)."""
    return dict(_OPTS)


@contextlib.contextmanager
def printoptions(**kwargs):
    """Temporarily apply ``set_printoptions(**kwargs)``; restore the old options on exit."""
    old = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**old)


# --------------------------------------------------------------------------
# dtypes
# --------------------------------------------------------------------------

_TORCH_NAMES = {
    "bool": "bool",
    "uint8": "uint8",
    "int8": "int8",
    "int16": "int16",
    "int32": "int32",
    "int64": "int64",
    "uint16": "uint16",
    "uint32": "uint32",
    "uint64": "uint64",
    "float16": "float16",
    "float32": "float32",
    "float64": "float64",
    "complex32": "complex32",
    "complex64": "complex64",
    "complex128": "complex128",
}

# The complex dtype that torch treats as default for a given default float dtype.
_DEFAULT_COMPLEX = {"float32": "complex64", "float64": "complex128", "float16": "complex64"}   # (torch/_tensor_str.py: cfloat unless double)


def torch_dtype_name(dtype):
    """``np.float64`` -> ``'torch.float64'`` (students compare with PyTorch's text)."""
    name = _dtype.name_of(np.dtype(dtype))
    if name not in _TORCH_NAMES:
        raise TypeError(f"gradlab cannot print arrays of dtype {name}")
    return "torch." + _TORCH_NAMES[name]


def _dtype_is_silent(name, default_float):
    """Non-empty tensors omit ``dtype=`` for these dtypes (section 1.10)."""
    return name in (default_float, _DEFAULT_COMPLEX.get(default_float), "int64", "bool")


# --------------------------------------------------------------------------
# Element formatters (section 1.4)
# --------------------------------------------------------------------------


class _IntFormatter:
    """bool and integer dtypes: plain ``str`` of the Python value."""

    def __init__(self, shown):
        values = shown.ravel().tolist()
        self.width = max([1] + [len(str(v)) for v in values])

    def strings(self, values):
        w = self.width
        return [str(v).rjust(w) for v in values]


class _FloatFormatter:
    """Floating dtypes: int mode, fixed point or scientific, one common width."""

    def __init__(self, shown, precision, sci_mode):
        self.precision = precision
        flat = shown.ravel()
        finite_nonzero = flat[np.isfinite(flat) & (flat != 0)]
        if finite_nonzero.size == 0:
            # Only zeros, nan and inf: int mode, and a forced sci_mode is ignored.
            self.int_mode, self.sci_mode, self.width = True, False, 1
            return
        # "Integral" is tested in the tensor's own dtype; the range in double.
        self.int_mode = bool(np.all(np.ceil(finite_nonzero) == finite_nonzero))
        magnitudes = np.abs(finite_nonzero.astype(np.float64))
        amin, amax = float(magnitudes.min()), float(magnitudes.max())
        if sci_mode is None:
            sci_mode = amax / amin > 1000.0 or amax > 1.0e8 or (
                not self.int_mode and amin < 1.0e-4
            )
        self.sci_mode = bool(sci_mode)
        # Width comes only from finite non-zero values: nan, inf and -0.
        # may stick out (they are never truncated).
        self.width = max(len(self._text(v)) for v in finite_nonzero.tolist())

    def _text(self, value):
        if self.sci_mode:
            return format(value, f".{self.precision}e")
        if self.int_mode:
            text = format(value, ".0f")
            # The trailing '.' marks a float; nan/inf do not get it.
            return text if math.isinf(value) or math.isnan(value) else text + "."
        return format(value, f".{self.precision}f")

    def strings(self, values):
        w = self.width
        return [self._text(v).rjust(w) for v in values]


def _make_formatter(shown, precision, sci_mode):
    if shown.dtype.kind == "f":
        return _FloatFormatter(shown, precision, sci_mode)
    return _IntFormatter(shown)


def _complex_strings(values, real_fmt, imag_fmt):
    """``real+imagj`` with independent real/imag widths, as torch prints complex."""
    reals = real_fmt.strings([v.real for v in values])
    imags = imag_fmt.strings([v.imag for v in values])
    out = []
    for re_text, im_text in zip(reals, imags):
        im_text = (im_text + "j").lstrip()
        sign = "" if im_text[0] in "+-" else "+"
        out.append(re_text + sign + im_text)
    return out


# --------------------------------------------------------------------------
# Summarization (section 1.7)
# --------------------------------------------------------------------------


def _shown_indices(shape, summarize, edgeitems):
    """Per axis: the indices that will be printed, and whether a gap is shown.

    Along each axis longer than ``2 * edgeitems`` only the first and last
    ``edgeitems`` entries are printed; this equals torch's recursive
    selection because all sub-tensors along an axis share one shape.
    """
    indices, gaps = [], []
    for size in shape:
        if summarize and size > 2 * edgeitems:
            indices.append(np.r_[0:edgeitems, size - edgeitems:size])
            gaps.append(True)
        else:
            indices.append(np.arange(size))
            gaps.append(False)
    return indices, gaps


# --------------------------------------------------------------------------
# Body layout (sections 1.5, 1.6)
# --------------------------------------------------------------------------


def _vector_body(items, gap, edgeitems, indent, element_length, linewidth):
    """One row: ``per_line`` items per line, continuation lines at ``indent + 1``."""
    items = list(items)
    if gap:
        # The gap marker counts as one item for the per-line arithmetic.
        items.insert(edgeitems, " ...")
    per_line = max(1, int(math.floor((linewidth - indent) / element_length)))
    lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _nested_body(strings, gaps, edgeitems, indent, element_length, linewidth):
    """Recursive layout: sub-tensors at ``indent + 1``, ``ndim - 1`` newlines between."""
    if strings.ndim == 1:
        return _vector_body(
            strings.tolist(), gaps[0], edgeitems, indent, element_length, linewidth
        )
    parts = [
        _nested_body(sub, gaps[1:], edgeitems, indent + 1, element_length, linewidth)
        for sub in strings
    ]
    if gaps[0]:
        parts.insert(edgeitems, "...")
    separator = "," + "\n" * (strings.ndim - 1) + " " * (indent + 1)
    return "[" + separator.join(parts) + "]"


def _body(array, indent, opts):
    """The text between ``tensor(`` and the suffixes, for a non-empty array."""
    precision, edgeitems = opts["precision"], opts["edgeitems"]
    summarize = array.size > opts["threshold"]
    if summarize and not edgeitems and array.ndim >= 1:
        return "[...]"

    indices, gaps = _shown_indices(array.shape, summarize, edgeitems)
    # Slice first: only shown elements are formatted, and only they shape the formatter.
    shown = array[np.ix_(*indices)] if array.ndim else array
    if shown.dtype == np.float16:
        shown = shown.astype(np.float32)  # exact; torch widens half before formatting
    values = shown.ravel().tolist()

    if shown.dtype.kind == "c":
        real_fmt = _make_formatter(shown.real, precision, opts["sci_mode"])
        imag_fmt = _make_formatter(shown.imag, precision, opts["sci_mode"])
        texts = _complex_strings(values, real_fmt, imag_fmt)
        element_length = real_fmt.width + 2 + imag_fmt.width + 1  # ", " and "j"
    else:
        fmt = _make_formatter(shown, precision, opts["sci_mode"])
        texts = fmt.strings(values)
        element_length = fmt.width + 2  # the ", " separator

    if array.ndim == 0:
        return texts[0]
    strings = np.empty(len(texts), dtype=object)
    strings[:] = texts
    strings = strings.reshape(shown.shape)
    return _nested_body(strings, gaps, edgeitems, indent, element_length, opts["linewidth"])


# --------------------------------------------------------------------------
# Suffixes (sections 1.9, 1.10)
# --------------------------------------------------------------------------


def _suffixes(array, requires_grad, grad_fn_name, default_float, opts):
    name = _dtype.name_of(array.dtype)
    out = []
    if array.size == 0:
        if array.ndim != 1:
            out.append(f"size={tuple(int(d) for d in array.shape)}")
        # Nothing to infer the dtype from, so anything but the default float is named.
        if name != default_float:
            out.append("dtype=" + torch_dtype_name(array.dtype))
    else:
        # torch adds size= whenever edgeitems is 0, summarized or not.
        if not opts["edgeitems"]:
            out.append(f"size={tuple(int(d) for d in array.shape)}")
        if not _dtype_is_silent(name, default_float):
            out.append("dtype=" + torch_dtype_name(array.dtype))
    if grad_fn_name is not None:
        out.append(f"grad_fn=<{grad_fn_name}>")
    elif requires_grad:
        out.append("requires_grad=True")
    return out


def _add_suffixes(text, suffixes, indent, linewidth):
    """Append suffixes, wrapping one onto a new line when it would pass ``linewidth``."""
    # Counter = length of the last line so far + 2 (room for ", ").
    counter = len(text) - text.rfind("\n") + 1
    pieces = [text]
    for suffix in suffixes:
        if counter + len(suffix) + 2 > linewidth:
            pieces.append(",\n" + " " * indent + suffix)
            counter = indent + len(suffix)
        else:
            pieces.append(", " + suffix)
            counter += len(suffix) + 2
    pieces.append(")")
    return "".join(pieces)


# --------------------------------------------------------------------------
# Entry point
# --------------------------------------------------------------------------


def format_tensor(
    array,
    *,
    requires_grad=False,
    grad_fn_name=None,
    prefix="tensor(",
    default_float=None,
    meta=False,
    suffixes=(),
):
    """The complete repr of a tensor holding ``array``, as torch prints it.

    ``grad_fn_name`` (e.g. ``"MulBackward0"``) wins over ``requires_grad``;
    ``prefix`` sets both the leading text and the indent (its length);
    ``default_float`` is the name of torch's default dtype (torch.get_default_dtype(): "float32" unless set);
    ``suffixes`` come last (a dual tensor's ``tangent=...``).
    """
    default_float = default_float or _dtype.get_default().np.name
    array = np.asarray(array)
    if meta:
        # a meta tensor has no values: its device, size, and any dtype but the default one
        extra = suffixes
        suffixes = ["device='meta'", f"size={tuple(int(d) for d in array.shape)}"]
        if np.dtype(array.dtype).name != default_float:
            suffixes.append("dtype=" + torch_dtype_name(array.dtype))
        if grad_fn_name is not None:
            suffixes.append(f"grad_fn=<{grad_fn_name}>")
        elif requires_grad:
            suffixes.append("requires_grad=True")
        return _add_suffixes(prefix + "...", [*suffixes, *extra], len(prefix), _OPTS["linewidth"])
    torch_dtype_name(array.dtype)  # reject unsupported dtypes early
    opts = _OPTS
    indent = len(prefix)
    shown = _dtype.c32_to_c64(array) if array.dtype.kind == "V" else array   # (complex32: its exact values)
    body = "[]" if array.size == 0 else _body(shown, indent, opts)
    suffixes = [*_suffixes(array, requires_grad, grad_fn_name, default_float, opts), *suffixes]
    return _add_suffixes(prefix + body, suffixes, indent, opts["linewidth"])
