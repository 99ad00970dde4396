"""nn.normalization layers."""
__all__ = []
