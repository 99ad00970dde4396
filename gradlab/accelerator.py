"""torch.accelerator, as PyTorch's CPU build answers it: no accelerator."""
__all__ = []
