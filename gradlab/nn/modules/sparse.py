"""nn.sparse layers."""
__all__ = []
