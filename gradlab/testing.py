"""torch.testing.assert_close: are two tensors (or numbers, or lists and dicts of them) close, and if not,
PyTorch's message saying where and by how much (torch/testing/_comparison.py)."""
import collections.abc
import math

import numpy as np

from ._tensor_core import Tensor

__all__ = ["assert_close", "assert_allclose"]

# (rtol, atol) per dtype, PyTorch's defaults; other dtypes (integers, bool) compare exactly
_PRECISIONS = {"float16": (0.001, 1e-5), "float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7),
               "complex64": (1.3e-6, 1e-5), "complex128": (1e-7, 1e-7)}


def _fail(kind, message, where):
    if where:
        message += "\n\nThe failure occurred for item " + "".join(f"[{w!r}]" for w in where)
    raise kind(message)


def _diff_lines(equality, kind, diff, index, tol):
    line = f"Greatest {kind} difference: {diff} at index {index}" if index is not None else \
        f"{kind.title()} difference: {diff}"
    return line + ("" if equality else f" (up to {tol} allowed)") + "\n"


def _message(identifier, extra, abs_diff, abs_idx, atol, rel_diff, rel_idx, rtol):
    equality = rtol == 0 and atol == 0
    text = f"{identifier} are not {'equal' if equality else 'close'}!\n\n{extra.strip()}\n"
    text += _diff_lines(equality, "absolute", abs_diff, abs_idx, atol)
    text += _diff_lines(equality, "relative", rel_diff, rel_idx, rtol)
    return text.strip()


def _greatest(values):
    """The greatest value and its flat index, as torch.max(values, 0) (a NaN wins)."""
    nan = np.isnan(values) if values.dtype.kind in "fc" else np.zeros(values.shape, bool)
    i = int(np.argmax(nan)) if nan.any() else int(np.argmax(values))
    return values[i].item(), i


def _compare_tensors(actual, expected, rtol, atol, equal_nan, check_dtype, where):
    for name, a, b in (("shape", actual.shape, expected.shape),
                       ("dtype", actual.dtype, expected.dtype) if check_dtype else ("", 0, 0)):
        if a != b:
            _fail(AssertionError, f"The values for attribute '{name}' do not match: {a} != {b}.", where)
    if rtol is None:
        rtol, atol = (max(_PRECISIONS.get(t.dtype.__str__()[6:], (0.0, 0.0))[i] for t in (actual, expected))
                      for i in (0, 1))
    a, b = actual._data, expected._data
    if a.dtype != b.dtype:        # PyTorch's promotion: an integer tensor takes the float one's dtype
        common = b.dtype if a.dtype.kind in "biu" and b.dtype.kind in "fc" else \
            a.dtype if b.dtype.kind in "biu" and a.dtype.kind in "fc" else np.promote_types(a.dtype, b.dtype)
        a, b = a.astype(common), b.astype(common)
    with np.errstate(all="ignore"):
        if a.dtype.kind == "b":
            matches = a == b
        else:
            matches = np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan) if a.dtype.kind in "fc" else \
                np.abs(a.astype(np.int64) - b.astype(np.int64)) <= atol + rtol * np.abs(b.astype(np.int64))
        if matches.all():
            return
        if a.ndim == 0:
            _compare_numbers(a.item(), b.item(), rtol, atol, equal_nan, where)
        flat_a, flat_b, flat_m = a.reshape(-1), b.reshape(-1), matches.reshape(-1)
        if flat_a.dtype.kind not in "fc":
            flat_a, flat_b = flat_a.astype(np.int64), flat_b.astype(np.int64)
        abs_diff = np.abs(flat_a - flat_b)
        abs_diff[flat_m] = 0
        rel_diff = abs_diff / np.abs(flat_b)
        if flat_a.dtype.kind not in "fc":        # PyTorch divides int64 tensors into its default float dtype
            rel_diff = rel_diff.astype(np.float32)
        rel_diff[flat_m] = 0
    abs_max, abs_i = _greatest(abs_diff)
    rel_max, rel_i = _greatest(rel_diff)
    n, bad = matches.size, int(matches.size - matches.sum())
    unravel = (lambda i: tuple(int(x) for x in np.unravel_index(i, matches.shape)))
    _fail(AssertionError, _message("Tensor-likes", f"Mismatched elements: {bad} / {n} ({bad / n:.1%})", abs_max,
                                   unravel(abs_i), atol, rel_max, unravel(rel_i), rtol), where)


def _compare_numbers(actual, expected, rtol, atol, equal_nan, where):
    if rtol is None:
        rtol, atol = (1e-7, 1e-7) if isinstance(actual, float) or isinstance(expected, float) else (0.0, 0.0)
    if actual == expected or (equal_nan and math.isnan(actual) and math.isnan(expected)) or \
            abs(actual - expected) <= atol + rtol * abs(expected):
        return
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    _fail(AssertionError, _message("Scalars", f"Expected {expected} but got {actual}.", abs_diff, None, atol,
                                   rel_diff, None, rtol), where)


def _compare(actual, expected, rtol, atol, equal_nan, check_dtype, where):
    if (rtol is None) != (atol is None) and not isinstance(actual, (collections.abc.Sequence, collections.abc.Mapping)):
        _fail(ValueError, "Both 'rtol' and 'atol' must be either specified or omitted, but got no "
                          f"{'rtol' if rtol is None else 'atol'}.", where)
    if isinstance(actual, Tensor) and isinstance(expected, Tensor):
        return _compare_tensors(actual, expected, rtol, atol, equal_nan, check_dtype, where)
    numbers = (bool, int, float, complex)
    if isinstance(actual, numbers) and isinstance(expected, numbers):
        if check_dtype and type(actual) is not type(expected):
            _fail(AssertionError, f"The (d)types do not match: {type(actual)} != {type(expected)}.", where)
        return _compare_numbers(actual, expected, rtol, atol, equal_nan, where)
    if isinstance(actual, collections.abc.Sequence) and isinstance(expected, collections.abc.Sequence) and \
            not isinstance(actual, str) and not isinstance(expected, str):
        if len(actual) != len(expected):
            _fail(AssertionError, f"The length of the sequences mismatch: {len(actual)} != {len(expected)}", where)
        for i, (a, b) in enumerate(zip(actual, expected)):
            _compare(a, b, rtol, atol, equal_nan, check_dtype, where + (i,))
        return
    if isinstance(actual, collections.abc.Mapping) and isinstance(expected, collections.abc.Mapping):
        if set(actual) != set(expected):
            _fail(AssertionError, f"The keys of the mappings do not match:\nMissing keys in the actual mapping: "
                                  f"{sorted(set(expected) - set(actual))}\nAdditional keys in the actual mapping: "
                                  f"{sorted(set(actual) - set(expected))}", where)
        for key in actual:
            _compare(actual[key], expected[key], rtol, atol, equal_nan, check_dtype, where + (key,))
        return
    raise TypeError(f"No comparison pair was able to handle inputs of type {_class_text(actual)} and "
                    f"{_class_text(expected)}.")


def _class_text(value):
    """repr(type(value)) as PyTorch prints it: gradlab's classes under torch's names (<class 'torch.Tensor'>)."""
    return repr(type(value)).replace("'gradlab.", "'torch.", 1)


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None, equal_nan=False,
                 check_device=True, check_dtype=True, check_layout=True, check_stride=False, msg=None):
    try:
        _compare(actual, expected, rtol, atol, equal_nan, check_dtype, ())
    except AssertionError as error:
        if msg is None:
            raise
        raise AssertionError(msg(str(error)) if callable(msg) else msg) from None


def assert_allclose(actual, expected, rtol=None, atol=None, equal_nan=True, msg=""):
    """Deprecated in PyTorch; compares as assert_close with check_dtype=False."""
    from_tensor = (lambda x: x if isinstance(x, Tensor) else Tensor._make(np.asarray(x)))
    assert_close(from_tensor(actual), from_tensor(expected), rtol=rtol, atol=atol, equal_nan=equal_nan,
                 check_dtype=False, msg=msg or None)
