"""nn.functional: normalization (imported by gradlab/nn/functional.py)."""
__all__ = []
