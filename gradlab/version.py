"""torch.version, as PyTorch's CPU build describes itself: no CUDA, no ROCm."""
__version__ = "0.1.0"
cuda = None
hip = None
debug = False
git_version = None
