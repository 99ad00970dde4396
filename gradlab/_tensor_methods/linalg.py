"""Tensor methods: linalg (copied onto Tensor by gradlab/tensor.py)."""


class _LinalgMethods:
    """Copied onto `Tensor` by gradlab/tensor.py."""
