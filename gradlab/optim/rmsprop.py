"""optim: rmsprop."""
__all__ = []
