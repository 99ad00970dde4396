"""nn.batchnorm layers."""
__all__ = []
