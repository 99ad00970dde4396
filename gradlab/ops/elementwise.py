"""Elementwise ops, in the files PyTorch groups them by:

* ops/arithmetic.py: add, sub, rsub, mul, div, neg, reciprocal, pow, remainder, fmod, lerp;
* ops/unary.py: exp, log, sqrt, trigonometric and hyperbolic functions, erf, abs, sign, rounding;
* ops/activation.py: tanh, sigmoid, relu, leaky_relu, gelu, softplus, silu, elu and their *_backward ops;
* ops/compare.py: clamp, maximum, minimum, where, masked_fill, index_fill;
* ops/conversion.py: to(dtype), clone and the layout of a copy.

Importing this module registers all of their rows. It also keeps the array helpers that the Tensor's
methods and creation/ read as `elementwise.<name>` (each is defined once, in the file named above).
"""
from . import activation, arithmetic, compare, conversion, unary  # noqa: F401
from .arithmetic import floor_divide_arrays, lshift_arrays, remainder_arrays, rshift_arrays  # noqa: F401
from .conversion import contiguous_strides, preserved_empty  # noqa: F401
