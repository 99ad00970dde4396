"""torch.accelerator, as PyTorch's CPU build answers it: no accelerator.

`torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"`
picks the CPU. What needs a device fails with PyTorch's message; a device named by string or
torch.device fails earlier, in PyTorch's Python helper, with "Accelerator expected".
"""

from ._device import _NO_ACCELERATOR, device as _device_class
from . import _warnings

__all__ = ["current_accelerator", "current_device_idx", "current_device_index", "get_device_capability",
           "current_stream", "device_count", "device_index", "empty_cache", "empty_host_cache", "get_memory_info",
           "is_available", "max_memory_allocated", "max_memory_reserved", "memory_allocated", "memory_reserved",
           "memory_stats", "reset_accumulated_memory_stats", "reset_peak_memory_stats", "set_device_idx",
           "set_device_index", "set_stream", "synchronize"]


def device_count():
    return 0


def is_available():
    return False


def current_accelerator(check_available=False):
    return None


def _no_accelerator():
    return RuntimeError(_NO_ACCELERATOR)


def _device_index(d, optional=False):
    """torch.accelerator._utils._get_device_index with no accelerator."""
    if isinstance(d, int):
        return d
    if isinstance(d, str):
        d = _device_class(d)
    if isinstance(d, _device_class):
        raise RuntimeError("Accelerator expected")
    if not optional:
        raise ValueError(f"Expected a torch.device with a specified index or an integer, but got:{d}")
    raise _no_accelerator()


def current_device_index():
    raise _no_accelerator()


def current_device_idx():
    _warnings.warn("Use `current_device_index` instead.", FutureWarning)
    return current_device_index()


def set_device_index(device, /):
    if _device_index(device) >= 0:            # a negative index is a no-op
        raise _no_accelerator()


def set_device_idx(device, /):
    _warnings.warn("Use `set_device_index` instead.", FutureWarning)
    return set_device_index(device)


def get_device_capability(device=None, /):
    _device_index(device, optional=True)
    raise _no_accelerator()


def current_stream(device=None, /):
    _device_index(device, optional=True)
    raise _no_accelerator()


def set_stream(stream):
    """No torch.Stream exists here, so no argument is one (pybind11's error)."""
    raise TypeError("_accelerator_setStream(): incompatible function arguments. The following argument types are "
                    f"supported:\n    1. (arg0: torch.Stream) -> None\n\nInvoked with: {stream!r}")


def synchronize(device=None, /):
    _device_index(device, optional=True)
    raise _no_accelerator()


class device_index:
    """`with torch.accelerator.device_index(i):`; None switches nothing."""

    def __init__(self, device, /):
        self.idx = device
        self.prev_idx = -1

    def __enter__(self):
        if self.idx is not None:
            raise _no_accelerator()

    def __exit__(self, *exc_info):
        return False


# torch.accelerator.memory: the allocator of a device that is not there
def empty_cache():
    raise _no_accelerator()


def empty_host_cache():
    raise _no_accelerator()


def _memory(name):
    def function(device_index=None, /):
        raise _no_accelerator()
    function.__name__ = function.__qualname__ = name
    return function


for _name in ("memory_stats", "memory_allocated", "max_memory_allocated", "memory_reserved", "max_memory_reserved",
              "reset_accumulated_memory_stats", "reset_peak_memory_stats", "get_memory_info"):
    globals()[_name] = _memory(_name)
del _name
