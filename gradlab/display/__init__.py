"""Text display of tensors (PyTorch-identical repr)."""

from .printing import (
    format_tensor,
    get_printoptions,
    printoptions,
    set_printoptions,
    torch_dtype_name,
)

__all__ = [
    "format_tensor",
    "get_printoptions",
    "printoptions",
    "set_printoptions",
    "torch_dtype_name",
]
