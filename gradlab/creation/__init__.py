"""Factory functions: tensor, ones, zeros, full, arange, linspace, eye, rand, randn, ...

Signatures and dtype rules follow PyTorch: Python ints give int64, Python floats float32, bools
bool; random factories draw from the same streams as PyTorch's CPU generator (`gradlab/random/`).
One module per kind of factory; they share the checks in `options`:

    options.py    dtype=/device=/pin_memory= checks, sizes, the "invalid combination" message
    data.py       torch.tensor(data), as_tensor, from_numpy (the data itself is read by gradlab/_tensor_data.py)
    legacy.py     torch.Tensor(...), torch.FloatTensor(...) and friends
    factories.py  ones, zeros, empty, full, eye and the *_like forms
    ranges.py     arange, linspace, logspace, bit for bit as PyTorch's CPU kernels
    sampling.py   rand, randn, randint, normal, *_like, manual_seed and the RNG state

The names below are what `gradlab/__init__.py`, `tensor.py` and the tests read as `gradlab.creation.X`.
"""
from .data import as_tensor, from_numpy, tensor
from .factories import empty, empty_like, eye, full, full_like, ones, ones_like, zeros, zeros_like
from .legacy import _legacy_types, legacy_data, tensortype
from .options import _options, _shape
from .ranges import arange, linspace, logspace
from .sampling import binomial  # noqa: F401
from .sampling import (bernoulli, get_rng_state, initial_seed, manual_seed, multinomial, normal, poisson, rand,
                       rand_like, randint, randint_like, randn, randn_like, randperm, seed, set_rng_state)

from .strided import asarray, empty_permuted, empty_strided, frombuffer, range, scalar_tensor, unravel_index
