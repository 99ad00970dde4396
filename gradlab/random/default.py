"""torch.Generator (PublicGenerator: the engine with PyTorch's public interface), the default
generator every factory draws from, and the module-level seed and state functions."""
import contextlib

import numpy as np

from .. import _device
from .._ctype import CType, tp_name
from .._tensor_core import Tensor      # (the class only, for the uint8 state tensors; below this layer)
from .generator import Generator

_NO_CUDA_GENERATOR = "Cannot get CUDA generator without ATen_cuda library. " + _device.NO_CUDA_LIBRARY


class PublicGenerator(Generator, metaclass=CType, c_name="torch._C.Generator"):
    """torch.Generator: the generator above with PyTorch's public interface (a device, states as
    uint8 tensors, the argument checks of PyTorch's C++ methods). Generator(seed) stays the
    numpy-level engine that gradlab's own code and tests use."""

    def __init__(self, device="cpu"):
        d = _device.as_device(device, "Generator")
        if d.type == "cuda":
            raise RuntimeError(_NO_CUDA_GENERATOR)
        _device.require_cpu(d)
        self.device = _device.CPU
        super().__init__()

    def manual_seed(self, seed):
        if isinstance(seed, np.integer):
            raise TypeError("an integer is required")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise RuntimeError(f"manual_seed expected a long, but got {type(seed).__name__}")
        if not -2 ** 63 <= int(seed) < 2 ** 64:
            raise ValueError("Overflow when unpacking long long")
        return super().manual_seed(seed)

    def get_state(self):
        return Tensor._make(super().get_state())

    def set_state(self, new_state):
        return super().set_state(state_array(new_state))


def state_array(state):
    """The numpy bytes of an RNG state given as a uint8 tensor, with PyTorch's checks."""
    if not isinstance(state, Tensor):
        raise TypeError(f"expected a torch.ByteTensor, but got {tp_name(type(state))}")
    if state._data.dtype != np.uint8:
        raise TypeError("RNG state must be a torch.ByteTensor")
    return state._data


# `torch.Generator` is `torch._C.Generator` (see Generator.__module__ in generator.py)
PublicGenerator.__module__ = "torch._C"
PublicGenerator.__qualname__ = "Generator"      # (its __name__ comes from c_name, as CType makes it)

default_generator = PublicGenerator()


def manual_seed(seed) -> Generator:
    return default_generator.manual_seed(seed)


def initial_seed() -> int:
    return default_generator.initial_seed()


def seed() -> int:
    return default_generator.seed()


def get_rng_state() -> np.ndarray:
    return Generator.get_state(default_generator)


def set_rng_state(state) -> None:
    Generator.set_state(default_generator, state)


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices", device_type="cuda"):
    """torch.random.fork_rng: the default generator's state is put back when the block ends (a CPU build
    has no device generators to fork)."""
    if not enabled:
        yield
        return
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)

