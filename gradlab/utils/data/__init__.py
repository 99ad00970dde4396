"""torch.utils.data: datasets, samplers and DataLoader, with PyTorch's batching and shuffling order.

    dataset.py     Dataset, IterableDataset, TensorDataset, Subset, ConcatDataset, ..., random_split
    sampler.py     SequentialSampler, RandomSampler (PyTorch's seeds and randperm), BatchSampler, ...
    _collate.py    default_collate, default_convert: samples into batches
    dataloader.py  DataLoader and its iterator (loading runs in this process)
"""
from . import _collate, dataloader, dataset, sampler  # noqa: F401
from ._collate import default_collate, default_convert
from .dataloader import DataLoader, _DatasetKind, get_worker_info
from .dataset import (ChainDataset, ConcatDataset, Dataset, IterableDataset, StackDataset, Subset, TensorDataset,
                      random_split)
from .sampler import (BatchSampler, RandomSampler, Sampler, SequentialSampler, SubsetRandomSampler,
                      WeightedRandomSampler)

__all__ = ["BatchSampler", "ChainDataset", "ConcatDataset", "DataLoader", "Dataset", "IterableDataset",
           "RandomSampler", "Sampler", "SequentialSampler", "StackDataset", "Subset", "SubsetRandomSampler",
           "TensorDataset", "WeightedRandomSampler", "_DatasetKind", "default_collate", "default_convert",
           "get_worker_info", "random_split"]
