"""Tensor's random in-place fills (`uniform_`, `normal_`): the same streams as PyTorch's generator."""
import numpy as np

from .. import _dtype, random as _random
from ..ops.indexing import assign_data


class _RandomFillMethods:
    """Copied onto `Tensor` by gradlab/tensor.py."""

    # random in-place fills (the same streams as PyTorch's generator)
    def uniform_(self, from_=0.0, to=1.0, *, generator=None):
        gen = generator if generator is not None else _random.default_generator
        _check_uniform_bounds(self._data.dtype, from_, to)
        if self._data.size == 0:
            return assign_data(self, self._data, "uniform_")
        return assign_data(self, gen.uniform(self._data.shape, self._data.dtype, from_, to), "uniform_")

    def normal_(self, mean=0.0, std=1.0, *, generator=None):
        gen = generator if generator is not None else _random.default_generator
        if not float(std) >= 0.0:                                # (NaN too) checked before the dtype
            raise RuntimeError(f"normal expects std >= 0.0, but found std {float(std):g}")
        if self._data.size == 0:        # nothing to fill: no dtype check (float(mean) still refuses None)
            float(mean)
            return assign_data(self, self._data, "normal_")
        if self._data.dtype.kind in "biu":
            raise NotImplementedError(f'"normal_kernel_cpu" not implemented for '
                                      f"'{_dtype.from_numpy_dtype(self._data.dtype)._legacy[:-6]}'")
        return assign_data(self, gen.normal(self._data.shape, self._data.dtype, mean, std), "normal_")


def _check_uniform_bounds(np_dtype, from_, to):
    """uniform_'s checks, in PyTorch's order and words (aten's check_uniform_bounds)."""
    if np_dtype.kind in "biu":
        raise NotImplementedError(f'"check_uniform_bounds" not implemented for '
                                  f"'{_dtype.from_numpy_dtype(np_dtype)._legacy[:-6]}'")
    if np_dtype.kind != "f":
        return
    from_, to = float(from_), float(to)
    info = np.finfo(np_dtype)
    c_name = {"float16": "c10::Half", "float32": "float", "float64": "double"}[np_dtype.name]
    for name, value in (("from", from_), ("to", to)):
        if not float(info.min) <= value <= float(info.max):
            raise RuntimeError(f"{name} is out of bounds for {c_name}")
    if from_ > to:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={from_:g} > to={to:g}")
    if to - from_ > float(info.max):
        raise RuntimeError(f"uniform_ expects to-from <= std::numeric_limits<{_dtype.from_numpy_dtype(np_dtype)._legacy[:-6]}"
                           f">::max(), but found to={to:g} and from={from_:g} which result in to-from to exceed the limit")
