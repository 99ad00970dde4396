"""nn.conv layers."""
__all__ = []
