"""torch.backends as a CPU-only build reports it: no MPS, no cuDNN, no CUDA; oneDNN and OpenMP present."""
from . import cuda, cudnn, mkldnn, mps, openmp  # noqa: F401
from . import mha  # noqa: F401,E402
