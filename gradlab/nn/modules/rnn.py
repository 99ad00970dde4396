"""nn.rnn layers."""
__all__ = []
