"""torch.linalg: matrix functions (norms, inverse, determinant, solve)."""
__all__ = []
