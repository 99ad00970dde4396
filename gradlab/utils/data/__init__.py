"""torch.utils.data: datasets, samplers and DataLoader, with PyTorch's batching and shuffling order."""
__all__ = []
