"""PyTorch-compatible CPU random number generation, on numpy arrays: the streams of
``torch.manual_seed`` / ``torch.rand`` / ``torch.randn`` / ``torch.randint`` (and ``uniform_`` /
``normal_``) of PyTorch's default CPU generator. The Tensor layer (creation/sampling.py,
Tensor.uniform_/normal_, nn.init) wraps these arrays.

One way down, each module importing only those above it in this list:

    exact.py      correctly rounded fused multiply-add and log (numpy has neither)
    generator.py  the MT19937 engine, its state bytes and samplers (the rules, in its docstring)
    default.py    torch.Generator, the default generator, manual_seed and the RNG state functions
    nn_init.py    the numbers torch.nn.init and nn.Linear draw
"""
from .default import (PublicGenerator, default_generator, fork_rng, get_rng_state, initial_seed, manual_seed, seed,
                      set_rng_state, state_array)
from .exact import _fma32, _fma64
from .generator import DEFAULT_SEED, STATE_SIZE, Generator
from .nn_init import (calculate_gain, fan_in_and_fan_out, init_constant, init_normal, init_uniform, kaiming_normal,
                      kaiming_uniform, linear_init, xavier_normal, xavier_uniform)

__all__ = [
    "Generator",
    "default_generator",
    "manual_seed",
    "initial_seed",
    "seed",
    "get_rng_state",
    "set_rng_state",
    "fork_rng",
    "DEFAULT_SEED",
    "STATE_SIZE",
    "calculate_gain",
    "fan_in_and_fan_out",
    "init_uniform",
    "init_normal",
    "init_constant",
    "kaiming_uniform",
    "kaiming_normal",
    "xavier_uniform",
    "xavier_normal",
    "linear_init",
]
