"""torch.cuda as a CPU-only PyTorch build answers it: no GPU, and a clear error when one is needed.

A notebook's `device = 'cuda' if torch.cuda.is_available() else 'cpu'` picks the CPU, and seeding
calls (`torch.cuda.manual_seed(0)`) do nothing, as in PyTorch without CUDA.
"""

from . import _dtype

_NOT_COMPILED = "Torch not compiled with CUDA enabled"


def is_available():
    return False


def device_count():
    return 0


def is_initialized():
    return False


def is_bf16_supported(including_emulation=True):
    return False


def get_arch_list():
    return []


# silent on a CPU-only build: PyTorch queues them until CUDA is initialised, which never happens
def manual_seed(seed):
    return None


def manual_seed_all(seed):
    return None


def seed():
    return None


def seed_all():
    return None


def set_rng_state(new_state, device="cuda"):
    return None


def empty_cache():
    return None


def memory_allocated(device=None):
    return 0


def max_memory_allocated(device=None):
    return 0


def memory_reserved(device=None):
    return 0


def _needs_cuda(name, parameters):
    """A function with PyTorch's parameters (so a wrong call is Python's TypeError, as there) that fails as
    a CPU build does when called rightly."""
    scope = {"_NOT_COMPILED": _NOT_COMPILED}
    exec(f"def {name}({parameters}):\n    raise AssertionError(_NOT_COMPILED)\n", scope)    # noqa: S102
    return scope[name]


for _name, _parameters in (("init", ""), ("current_device", ""), ("get_device_name", "device=None"),
                           ("get_device_properties", "device=None"), ("get_device_capability", "device=None"),
                           ("synchronize", "device=None"), ("initial_seed", ""), ("get_rng_state", "device='cuda'"),
                           ("get_rng_state_all", ""), ("current_stream", "device=None"), ("mem_get_info", "device=None"),
                           ("ipc_collect", "")):
    globals()[_name] = _needs_cuda(_name, _parameters)
del _name, _parameters


class tensortype(type):
    """torch.cuda.FloatTensor and friends on a CPU-only build: no tensor is one, none can be made."""

    def __instancecheck__(cls, obj):
        return False

    def __call__(cls, *args, **kwargs):
        raise TypeError(f"type torch.cuda.{cls.__name__} not available. Torch not compiled with CUDA enabled.")


for _legacy, _dtype_name in (("FloatTensor", "float32"), ("DoubleTensor", "float64"), ("HalfTensor", "float16"),
                             ("BFloat16Tensor", None), ("ByteTensor", "uint8"), ("CharTensor", "int8"),
                             ("ShortTensor", "int16"), ("IntTensor", "int32"), ("LongTensor", "int64"),
                             ("BoolTensor", "bool_")):
    globals()[_legacy] = tensortype(_legacy, (), {"__module__": "gradlab.cuda", "is_cuda": True,
                                                       "dtype": getattr(_dtype, _dtype_name, None)
                                                       if _dtype_name else None})
del _legacy, _dtype_name
tensortype.__module__ = "gradlab"          # type(torch.cuda.FloatTensor) prints torch.tensortype
