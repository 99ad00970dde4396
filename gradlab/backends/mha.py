"""torch.backends.mha: whether nn.MultiheadAttention and the Transformer layers may take PyTorch's fused
inference kernels (the "fast path"). gradlab always runs the Python composition; the flag is kept so
that code setting and reading it runs, and the modules give the same reasons as PyTorch's."""

_is_fastpath_enabled = True


def get_fastpath_enabled():
    """Whether the fast path is enabled (PyTorch's default: True)."""
    return _is_fastpath_enabled


def set_fastpath_enabled(value):
    """Sets whether the fast path is enabled."""
    global _is_fastpath_enabled
    _is_fastpath_enabled = value
