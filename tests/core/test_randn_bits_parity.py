"""torch.randn's float32 block path (16 or more numbers) against live torch, bit for bit."""
import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


@pytest.mark.parametrize("seed", range(0, 60, 7))
def test_normal_block_path_bits(seed):
    """16 or more float32 normals (randn, normal_, nn.init, float16 through float32): PyTorch's bits. On an x86
    CPU with AVX2 (or AVX-512) PyTorch uses avx_mathfun's float32 log and sin/cos, which gradlab reproduces
    step for step; without AVX2 it calls the C library, which gradlab approximates (correctly rounded)."""
    rng = np.random.default_rng(seed)
    cases = []
    for _ in range(12):
        n = int(rng.choice([16, 17, 31, 48, 200, 1000, 5003]))
        mean, std = (0.0, 1.0) if rng.random() < 0.5 else (float(rng.normal()), float(rng.uniform(0.01, 3)))
        dtype = str(rng.choice(["float32", "float32", "float16"]))
        cases.append((n, mean, std, dtype))
    same = total = 0
    for n, mean, std, dtype in cases:
        got = []
        for lib in (torch, gradlab):
            lib.manual_seed(seed)
            got.append(lib.empty(n, dtype=getattr(lib, dtype)).normal_(mean, std).numpy())
        same += int((got[0] == got[1]).sum())
        total += n
    if torch.backends.cpu.get_cpu_capability() in ("AVX2", "AVX512"):
        assert same == total
    else:
        assert same >= 0.97 * total
