"""nn.pooling layers."""
__all__ = []
