"""nn.distance layers."""
__all__ = []
