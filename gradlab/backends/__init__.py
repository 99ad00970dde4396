"""torch.backends as a CPU-only build reports it: no MPS, no cuDNN, no CUDA."""
from . import cuda, cudnn, mps  # noqa: F401
