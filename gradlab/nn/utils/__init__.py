"""torch.nn.utils: gradient clipping and parameter vectors."""
__all__ = []
