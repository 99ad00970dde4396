"""torch.functional: the functions PyTorch defines in Python there, re-exported from gradlab (a tutorial
imports it as `import torch.functional as F`)."""
from . import (broadcast_shapes, broadcast_tensors, cdist, einsum, meshgrid, norm, split, tensordot, unique,
               unique_consecutive)

__all__ = ["broadcast_shapes", "broadcast_tensors", "cdist", "einsum", "meshgrid", "norm", "split", "tensordot",
           "unique", "unique_consecutive"]
