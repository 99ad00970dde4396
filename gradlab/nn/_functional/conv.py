"""nn.functional: conv (imported by gradlab/nn/functional.py)."""
__all__ = []
