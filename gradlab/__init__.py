"""gradlab: PyTorch's autograd made visible.

A numpy autograd engine with PyTorch's API whose printed text is PyTorch's, character for
character. `import gradlab as torch` runs the autograd tutorials unchanged. Drawings and the
step-by-step backward player live in `gradlab.viz` (imported on demand; `import gradlab` needs
only numpy).
"""
import gc as _gc
import importlib as _importlib

# Importing makes ~25,000 objects that live as long as the process: the cyclic garbage collector would
# scan them over and over while they are made (~8 ms of the import). It is switched off until the end of
# this file, and back on only if it was on.
_gc_was_enabled = _gc.isenabled()
_gc.disable()

from . import _dtype
from ._dtype import (bool_ as bool, complex32, complex64, complex128, dtype, float16, float32, float64, int8, int16, int32,
                     int64, uint8, uint16, uint32, uint64)
from ._dtype import channels_last, contiguous_format, finfo, iinfo, layout, memory_format, preserve_format, strided
from ._size import Size
from ._device import device, get_default_device, set_default_device
from ._dtype import promote_types
from .tensor import Tensor, cat, concat, concatenate, matmul, maximum, minimum, stack, where
from .tensor import is_warn_always_enabled, set_warn_always
from .tensor import _type_name, broadcast_error as _broadcast_error
from .creation import (arange, as_tensor, empty, empty_like, eye, from_numpy, full, full_like, get_rng_state,
                       initial_seed, linspace, logspace, manual_seed, normal, ones, ones_like, rand, rand_like, randint,
                       randint_like, randn, randn_like, seed, set_rng_state, tensor, zeros, zeros_like)
from .creation import bernoulli, binomial, multinomial, poisson, randperm
# (range and complex are PyTorch's here: this file's own code says builtins.range)
from .creation import asarray, empty_permuted, empty_strided, frombuffer, range, scalar_tensor, unravel_index
from .random import PublicGenerator as Generator, default_generator
from . import autograd
from . import _dynamo  # noqa: E402,F401  (torch.compile's part in autograd; nn.Module.compile reads it)
from .autograd import enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled, no_grad, set_grad_enabled
from .display.printing import get_printoptions, printoptions, set_printoptions
from .ops.registry import OPS
from . import nn  # noqa: E402  (after the core: it builds on it; its layers load at first use)
# torch.autograd.functional (jacobian, hessian, vjp, ...) is built on the whole tensor API: imported once it exists
from .autograd import functional as _autograd_functional  # noqa: E402,F401
del _autograd_functional
from . import backends, cuda, return_types, version  # noqa: E402

# Public classes report their public name: type(x) is <class 'gradlab.Tensor'>, as PyTorch's is
# <class 'torch.Tensor'>, not the module that happens to define it.
for _cls in (Tensor, Size, dtype, memory_format, layout):
    _cls.__module__ = "gradlab"
del _cls

__version__ = "0.1.0"

# torch.FloatTensor, torch.LongTensor, ...: legacy constructors, and isinstance checks of a dtype
from .creation import _legacy_types  # noqa: E402
globals().update(_legacy_types())
del _legacy_types

# torch.pi, torch.inf, ...: Python's numbers, as PyTorch exports them
from math import e, inf, nan, pi  # noqa: E402,F401

# PyTorch's aliases
float = float32
double = float64
half = float16
long = int64
int = int32
short = int16
chalf = complex32
cfloat = complex64
cdouble = complex128


def is_tensor(obj):
    return isinstance(obj, Tensor)


def numel(input):
    return input.numel()


from ._functions._common import method_forms as _method_forms  # noqa: E402  (gradlab.<fn> is input.<fn>(...))

# gradlab.<fn> forms of Tensor methods that are not rows of the op table (a row's are made at the end of
# this file, from its `variants`)
globals().update(_method_forms("subtract", "multiply", "divide", "true_divide", "square", "max", "min", "argmax",
                               "argmin", "outer", "flatten", "unflatten", "narrow", "chunk", "detach", "isnan",
                               "isinf", "isfinite", "signbit", "allclose", "take_along_dim", "index_put", "argwhere", "equal", "any", "all", "nonzero", "logical_not", "eq",
                               "ne", "lt", "le", "gt", "ge", "greater", "less", "is_floating_point", "is_complex"))


import builtins as _builtins  # noqa: E402
import numbers as _numbers  # noqa: E402
from collections.abc import Sequence as _Sequence  # noqa: E402


def broadcast_tensors(*tensors):
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {_type_name(t)}")
    shape = ()
    for t in tensors:                    # pairwise, left to right, as PyTorch's infer_size
        try:
            shape = _broadcast_pair(shape, t.shape)
        except RuntimeError:
            raise _broadcast_error(shape, t.shape) from None
    # a tensor already of that shape comes back itself, as in PyTorch
    return tuple(t if t.shape == shape else t.expand(shape) for t in tensors)


def _broadcast_pair(a, b):
    n = _builtins.max(len(a), len(b))     # (max here is gradlab.max)
    a, b = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
    if _builtins.any(x != y and x != 1 and y != 1 for x, y in zip(a, b)):
        raise RuntimeError
    return tuple(y if x == 1 else x for x, y in zip(a, b))


def broadcast_shapes(*shapes):
    """torch._refs._broadcast_shapes, line by line (its checks and messages)."""
    shapes = [(s,) if isinstance(s, _numbers.Integral) and not hasattr(s, "dtype") else s
              for s in shapes if s is not None]
    if not shapes:
        return Size([])
    for s in shapes:
        if not isinstance(s, _Sequence):
            s = s.item() if isinstance(s, Tensor) and s.dim() == 0 else s     # (torch shows a 0-d one's item)
            raise RuntimeError(f"Input shapes should be of type ints, a tuple of ints, or a list of ints, got {s}")
    common = [1] * _builtins.max(len(s) for s in shapes)
    for arg_idx, s in enumerate(shapes):
        for idx in _builtins.range(-1, -1 - len(s), -1):
            if s[idx] == common[idx]:
                continue
            if common[idx] == 1:
                if s[idx] < 0:
                    raise ValueError("Attempting to broadcast a dimension with negative length!")
                common[idx] = s[idx]
            if s[idx] != 1 and common[idx] != s[idx]:
                raise RuntimeError(f"Attempting to broadcast a dimension of length {s[idx]} at {idx}! Mismatching "
                                   f"argument at index {arg_idx} had {s}; but expected shape should be "
                                   f"broadcastable to {common}")
    for i, n in enumerate(common):
        if not isinstance(n, _numbers.Integral):
            raise TypeError(f"torch.Size() takes an iterable of 'int' (item {i} is '{type(n).__name__}')")
    return Size(common)


def dropout(input, p=0.5, train=True):
    return nn.functional.dropout(input, p, train)


# gradlab.<fn> functions by topic (gradlab/_functions), torch.linalg, torch.accelerator
from ._functions.core import *  # noqa: E402,F401,F403
from ._functions.pointwise import *  # noqa: E402,F401,F403
from ._functions.shape import *  # noqa: E402,F401,F403
from ._functions.sorting import *  # noqa: E402,F401,F403
from ._functions.linalg import *  # noqa: E402,F401,F403
from ._functions.statistics import *  # noqa: E402,F401,F403
from ._functions.misc import *  # noqa: E402,F401,F403
from . import accelerator, linalg  # noqa: E402,F401
from . import special  # noqa: E402,F401  (torch.special: the op table's special functions)

# gradlab.<name> -> (the module that defines it, its name there), loaded at the first use of the name (see
# __getattr__ below): nn.functional's kernels, which PyTorch also exports at the top (torch.conv2d,
# torch.selu, torch.batch_norm, ...), and the recurrent layers' C functions (torch.lstm, nn.LSTM's _VF.lstm).
# `import gradlab` then needs none of gradlab.nn's 30 files of layers and functional forms.
_LAZY_FUNCTIONS = {
    **{name: ("nn._functional.conv", name) for name in (
        "adaptive_avg_pool1d", "avg_pool1d", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
        "conv_transpose3d", "convolution", "max_pool1d", "max_pool1d_with_indices", "max_pool2d", "max_pool3d")},
    "adaptive_max_pool1d": ("nn._functional.conv", "torch_adaptive_max_pool1d"),
    "constant_pad_nd": ("nn._functional.conv", "torch_constant_pad_nd"),
    "bilinear": ("nn._functional.attention", "bilinear"),
    "embedding": ("nn._functional.sampling", "torch_embedding"),
    "embedding_bag": ("nn._functional.sampling", "torch_embedding_bag"),
    **{name: ("nn._functional.sampling", name) for name in (
        "affine_grid_generator", "grid_sampler", "grid_sampler_2d", "grid_sampler_3d")},
    "cosine_similarity": ("nn.functional", "cosine_similarity"),
    "pairwise_distance": ("nn.functional", "pairwise_distance"),
    # (nn/_functional/native.py's __all__: tests/project/test_lazy_loading.py checks that this list holds it)
    **{name: ("nn._functional.native", name) for name in (
        "native_layer_norm", "native_batch_norm", "native_group_norm", "native_dropout", "norm_except_dim",
        "native_channel_shuffle")},
    # torch.selu, torch.rrelu, torch.alpha_dropout, ...: nn's activations and dropouts as PyTorch's C functions
    "celu_": ("nn._functional.activation", "celu_"),
    "selu_": ("nn._functional.activation", "selu_"),
    **{name: ("nn._functional.activation", "torch_" + name) for name in (
        "alpha_dropout", "alpha_dropout_", "celu", "dropout_", "feature_alpha_dropout", "feature_alpha_dropout_",
        "feature_dropout", "feature_dropout_", "rrelu", "rrelu_", "selu", "threshold", "threshold_")},
    **{name: ("nn._functional.loss", "torch_" + name) for name in (
        "cosine_embedding_loss", "hinge_embedding_loss", "kl_div", "margin_ranking_loss", "poisson_nll_loss",
        "triplet_margin_loss", "ctc_loss", "_ctc_loss", "binary_cross_entropy_with_logits")},
    "rms_norm": ("nn._functional.normalization", "rms_norm"),
    **{name: ("nn._functional.normalization", "torch_" + name) for name in (
        "batch_norm", "group_norm", "instance_norm", "layer_norm")},
    **{name: ("nn.modules.rnn", name) for name in (
        "gru", "gru_cell", "lstm", "lstm_cell", "rnn_relu", "rnn_relu_cell", "rnn_tanh", "rnn_tanh_cell")},
    "compile": ("compiler", "compile"),
    # (nn.utils.rnn's C functions: torch._pack_padded_sequence(input, lengths, batch_first) -> (data, batch_sizes))
    **{name: ("nn.utils.rnn", name) for name in ("_pack_padded_sequence", "_pad_packed_sequence")},
}

# gradlab.exp(x), gradlab.sum(x, 0), ...: the function forms the op table declares (`variants`), made by
# _functions/variants.py for every name not bound above by hand (gradlab.cat, gradlab.reshape, ...)
from ._functions.variants import function_forms as _function_forms  # noqa: E402
globals().update(_function_forms(written={**globals(), **_LAZY_FUNCTIONS}))
del _function_forms

# HTML cards for Jupyter (gradlab/viz/cards.py); they never change text/plain. gradlab.viz is imported at
# the first card or drawing, not here: `import gradlab` stays fast where nothing is drawn.
def _viz_card(name):
    def card(self, *args, **options):
        try:
            from .viz import cards
        except Exception:               # a card never raises: Jupyter then shows text/plain
            return None
        return getattr(cards, name)(self, *args, **options)
    card.__name__ = card.__qualname__ = "draw" if name == "draw_tensor" else "_repr_html_"
    return card


Tensor._repr_html_ = _viz_card("tensor_card")
autograd.Node._repr_html_ = _viz_card("node_card")
Tensor.draw = _viz_card("draw_tensor")
Tensor.draw.__doc__ = "t.draw(...) is gradlab.viz.draw(t, ...): the autograd graph behind this tensor."

from . import _argparse, _signatures  # noqa: E402
from ._functions.out import out_forms as _out_forms  # noqa: E402
globals().update(_out_forms(globals(), _signatures.TORCH))   # torch.add(x, y, out=result)
_argparse.wrap_methods(Tensor)           # Tensor's methods checked on the class, once it has them all
# PyTorch's argument errors for its C functions (gradlab/_argparse): this module binds its own checked forms
globals().update(_argparse.wrapped(globals(), _signatures.TORCH))

# torch.functional builds on the functions above
from . import functional  # noqa: E402,F401
from .functional import chain_matmul  # noqa: E402,F401  (PyTorch's is in torch/functional.py too)
from .functional import istft, stft  # noqa: E402,F401  (torch.stft is in torch/functional.py too)
from .functional import _fft_c2c, _fft_c2r, _fft_r2c  # noqa: E402,F401  (stft's transforms: torch._fft_r2c, ...)
globals().update(_argparse.wrapped({"istft": istft}, _signatures.TORCH))     # (torch.istft is a C function)

# the meta device's net under the hand-written methods and functions, installed with the first meta tensor
from . import _device as _meta_device  # noqa: E402
from ._tensor_methods import meta as _meta_api  # noqa: E402


def _install_meta_net():
    for name in _LAZY_FUNCTIONS:                 # (the net wraps the functions bound when it is installed)
        __getattr__(name)
    _meta_api.install([globals(), vars(linalg), vars(special), vars(nn.functional)])


_meta_device.ON_FIRST_META.append(_install_meta_net)
del _meta_device

# Loaded at first use (PEP 562): PyTorch imports these at start-up, and `gradlab.optim` works the same way
# here, but `import gradlab` does not pay for what a program never touches.
_LAZY_MODULES = {"compiler", "distributions", "fft", "func", "optim", "testing", "utils"}


def __getattr__(name):
    if name in _LAZY_MODULES:                    # (importing it binds it here, so this runs once per name)
        return _importlib.import_module(f".{name}", __name__)
    if name not in _LAZY_FUNCTIONS:
        raise AttributeError(f"module '{__name__}' has no attribute '{name}'")
    module, attribute = _LAZY_FUNCTIONS[name]
    # nn.functional first: it imports the files of nn/_functional in its order (each of them needs it whole)
    _importlib.import_module(".nn.functional", __name__)
    fn = getattr(_importlib.import_module(f".{module}", __name__), attribute)
    # as the names bound above: torch.threshold(..., out=t), and PyTorch's TypeErrors for its arguments
    fn = _out_forms({name: fn}, _signatures.TORCH).get(name, fn)
    fn = globals()[name] = _argparse.wrapped({name: fn}, _signatures.TORCH).get(name, fn)
    return fn


def __dir__():
    return sorted(set(globals()) | _LAZY_MODULES | set(_LAZY_FUNCTIONS))


# What the import made lives as long as the process: frozen (gc.freeze), the collector never scans it again,
# neither in the program's own full collections nor in the one at exit, which would otherwise free it object by
# object just before the process ends (56M of the 273M instructions gradlab added to `import numpy`).
_gc.freeze()
if _gc_was_enabled:
    _gc.enable()
del _gc, _gc_was_enabled
