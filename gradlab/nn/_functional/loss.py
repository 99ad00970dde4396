"""nn.functional: loss (imported by gradlab/nn/functional.py)."""
__all__ = []
