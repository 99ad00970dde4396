"""Tensor methods: sorting (copied onto Tensor by gradlab/tensor.py)."""


class _SortingMethods:
    """Copied onto `Tensor` by gradlab/tensor.py."""
