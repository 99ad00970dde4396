"""DataLoader (torch.utils.data.dataloader): batches of a dataset, in PyTorch's order.

Each `iter(loader)` first draws a 64-bit base seed from the loader's generator (the default one if
none), as PyTorch's iterator does for its workers; a shuffling RandomSampler then draws its own seed
when the first batch is asked for. Keeping both draws is what keeps a program's later random numbers
PyTorch's. Loading always runs in this process: num_workers > 0 is accepted (with PyTorch's checks and
warnings) and loads the same batches in the same order."""
import math
import os

import numpy as np

from ...tensor import Tensor
from ._collate import default_collate, default_convert
from .dataset import IterableDataset, Subset, TensorDataset
from .sampler import BatchSampler, RandomSampler, SequentialSampler, fresh_seed
from ... import _warnings

__all__ = ["DataLoader", "default_collate", "default_convert", "get_worker_info"]


def get_worker_info():
    """None: gradlab loads in the main process, where PyTorch answers None too."""
    return None


class _DatasetKind:
    Map = 0
    Iterable = 1


class _InfiniteConstantSampler:
    """None, forever: the sampler of an iterable dataset."""

    def __iter__(self):
        while True:
            yield None


class DataLoader:
    """Iterates over a dataset in batches (see the module docstring)."""

    __initialized = False

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 multiprocessing_context=None, generator=None, *, prefetch_factor=None, persistent_workers=False,
                 pin_memory_device="", in_order=True):
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable "
                             "multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError("prefetch_factor option could only be specified in multiprocessing.let num_workers > 0 "
                             "to enable multiprocessing, otherwise set prefetch_factor to None.")
        elif num_workers > 0 and prefetch_factor is None:
            prefetch_factor = 2
        elif prefetch_factor is not None and prefetch_factor < 0:
            raise ValueError("prefetch_factor option should be non-negative")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")

        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context
        self.in_order = in_order

        if isinstance(dataset, IterableDataset):
            self._dataset_kind = _DatasetKind.Iterable
            if shuffle not in {False, None}:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified shuffle option, but got "
                                 f"shuffle={shuffle}")
            if sampler is not None:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified sampler option, but got "
                                 f"sampler={sampler}")
            if batch_sampler is not None:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified batch_sampler option, but "
                                 f"got batch_sampler={batch_sampler}")
        else:
            shuffle = bool(shuffle)
            self._dataset_kind = _DatasetKind.Map

        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and "
                                 "drop_last")
            batch_size = None
            drop_last = False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with drop_last")

        if sampler is None:
            if self._dataset_kind == _DatasetKind.Iterable:
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)

        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        self.__initialized = True
        self._IterableDataset_len_called = None
        self._iterator = None
        self.check_worker_number_rationality()

    @property
    def multiprocessing_context(self):
        return self.__multiprocessing_context

    @multiprocessing_context.setter
    def multiprocessing_context(self, multiprocessing_context):
        if multiprocessing_context is not None and self.num_workers == 0:
            raise ValueError("multiprocessing_context can only be used with multi-process loading (num_workers > 0), "
                             f"but got num_workers={self.num_workers}")
        self.__multiprocessing_context = multiprocessing_context

    def __setattr__(self, attr, val):
        if self.__initialized and attr in ("batch_size", "batch_sampler", "sampler", "drop_last", "dataset",
                                           "persistent_workers"):
            raise ValueError(f"{attr} attribute should not be set after {self.__class__.__name__} is initialized")
        super().__setattr__(attr, val)

    def __iter__(self):
        if self.persistent_workers and self.num_workers > 0:     # one iterator for the loader's lifetime
            if self._iterator is None:
                self._iterator = _SingleProcessDataLoaderIter(self)
            else:
                self._iterator._reset(self)
            return self._iterator
        return _SingleProcessDataLoaderIter(self)

    @property
    def _auto_collation(self):
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        return self.batch_sampler if self._auto_collation else self.sampler

    def __len__(self):
        if self._dataset_kind == _DatasetKind.Iterable:
            length = self._IterableDataset_len_called = len(self.dataset)
            if self.batch_size is not None:
                length = length // self.batch_size if self.drop_last else math.ceil(length / self.batch_size)
            return length
        return len(self._index_sampler)

    def check_worker_number_rationality(self):
        """PyTorch's warning when more workers are asked for than this process may use CPUs."""
        if not self.num_workers:
            return
        cpuset_checked = hasattr(os, "sched_getaffinity")
        suggest = len(os.sched_getaffinity(0)) if cpuset_checked else os.cpu_count()
        if suggest is None or self.num_workers > suggest:
            if suggest is not None:
                detail = (f"Our suggested max number of worker in current system is {suggest}"
                          f"{'' if cpuset_checked else ' (`cpuset` is not taken into account)'}, which is smaller "
                          "than what this DataLoader is going to create.")
            else:
                detail = "DataLoader is not able to compute a suggested max number of worker in current system."
            _warnings.warn(f"This DataLoader will create {self.num_workers} worker processes in total. {detail} "
                           "Please be aware that excessive worker creation might get DataLoader running slow or even "
                           "freeze, lower the worker number to avoid potential slowness/freeze if necessary.")


class _SingleProcessDataLoaderIter:
    """One pass over a DataLoader's batches."""

    def __init__(self, loader):
        self._dataset = loader.dataset
        self._dataset_kind = loader._dataset_kind
        self._IterableDataset_len_called = loader._IterableDataset_len_called
        self._auto_collation = loader._auto_collation
        self._drop_last = loader.drop_last
        self._index_sampler = loader._index_sampler
        self._num_workers = loader.num_workers
        if loader.pin_memory and loader.pin_memory_device:
            _warnings.warn("pin_memory_device is deprecated, the current accelerator will be used as the device,"
                           f"ignore pin_memory_device='{loader.pin_memory_device}'.")
        if loader.pin_memory:                       # (a CPU build has no accelerator)
            _warnings.warn("'pin_memory' argument is set as true but no accelerator is found, then device pinned "
                           "memory won't be used.")
        self._collate_fn = loader.collate_fn
        self._sampler_iter = iter(self._index_sampler)
        self._base_seed = fresh_seed(loader.generator)
        self._num_yielded = 0
        if self._dataset_kind == _DatasetKind.Iterable:
            self._dataset_iter = iter(self._dataset)
            self._ended = False
        # a plain TensorDataset batched by default_collate: the same batches by fancy indexing (no tensor
        # requires grad, so stacking the rows would record no graph either)
        base = self._dataset.dataset if type(self._dataset) is Subset else self._dataset     # (random_split's)
        self._fast = (type(base) is TensorDataset and self._collate_fn is default_collate and self._auto_collation
                      and not any(t.requires_grad for t in base.tensors))

    def __iter__(self):
        return self

    def _reset(self, loader):
        """The next epoch of a persistent iterator: a new pass of the sampler, no new base seed."""
        self._sampler_iter = iter(self._index_sampler)
        self._num_yielded = 0
        self._IterableDataset_len_called = loader._IterableDataset_len_called
        if self._dataset_kind == _DatasetKind.Iterable:
            self._dataset_iter = iter(self._dataset)
            self._ended = False

    def __len__(self):
        return len(self._index_sampler)

    def __next__(self):
        index = next(self._sampler_iter)            # may raise StopIteration
        data = self._fetch(index)
        self._num_yielded += 1
        if (self._dataset_kind == _DatasetKind.Iterable and self._IterableDataset_len_called is not None
                and self._num_yielded > self._IterableDataset_len_called):
            _warnings.warn(f"Length of IterableDataset {self._dataset} was reported to be "
                           f"{self._IterableDataset_len_called}(when accessing len(dataloader)), but "
                           f"{self._num_yielded} samples have been fetched. ")
        return data

    def _fetch(self, index):
        if self._dataset_kind == _DatasetKind.Iterable:
            if self._ended:
                raise StopIteration
            if self._auto_collation:
                data = []
                for _ in index:
                    try:
                        data.append(next(self._dataset_iter))
                    except StopIteration:
                        self._ended = True
                        break
                if len(data) == 0 or (self._drop_last and len(data) < len(index)):
                    raise StopIteration
            else:
                data = next(self._dataset_iter)
            return self._collate_fn(data)
        if self._auto_collation:
            if self._fast:              # what default_collate makes of the rows, taken in one step
                batch = self._rows(index)
                if batch is not None:
                    return batch
            if hasattr(self._dataset, "__getitems__") and self._dataset.__getitems__:
                data = self._dataset.__getitems__(index)
            else:
                data = [self._dataset[idx] for idx in index]
        else:
            data = self._dataset[index]
        return self._collate_fn(data)

    def _rows(self, index):
        """The batch of a plain TensorDataset's rows `index` (a list of ints in range; through a Subset's
        indices), else None."""
        dataset = self._dataset
        if type(dataset) is Subset:
            if not (isinstance(index, list) and all(type(i) is int for i in index)):
                return None
            n = len(dataset.indices)
            if not index or max(index) >= n or min(index) < -n:
                return None
            index, dataset = [dataset.indices[i] for i in index], dataset.dataset
        if not (isinstance(index, list) and index and all(type(i) is int for i in index)):
            return None
        n = len(dataset)
        if max(index) >= n or min(index) < -n:
            return None                 # (the row-by-row path raises PyTorch's IndexError)
        rows = np.array(index, dtype=np.int64)
        return [Tensor._make(np.ascontiguousarray(t._data[rows])) for t in dataset.tensors]

    def __getstate__(self):
        raise NotImplementedError("{} cannot be pickled", self.__class__.__name__)
