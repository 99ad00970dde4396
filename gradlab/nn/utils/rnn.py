"""torch/nn/utils/rnn.py: batches of sequences of different lengths, padded or packed.

A batch of sentences rarely has one length. `pad_sequence` stacks them into one (time, batch, *) tensor,
filling the short ones with padding_value. `pack_padded_sequence` then keeps only the real steps
(a PackedSequence: the rows of every time step, one step after another, and how many sequences are still
running at each step, batch_sizes), so that nn.RNN, nn.LSTM and nn.GRU never compute on padding and each
sequence's final hidden state is the one at its own last step. `pad_packed_sequence` turns the output
back into a padded tensor and the lengths.

As in PyTorch, the Python functions are torch's; what torch computes in C++ (pad_sequence,
_pad_packed_sequence: a tensor filled with padding_value, rows copied in with copy_, so the graph has
PyTorch's CopySlices nodes) is written below with the same ops, and _pack_padded_sequence, which has a
gradient formula of its own (PackPaddedSequenceBackward0), is a row of the op table (ops/packed_sequence.py).
"""
import collections
import numbers
from collections.abc import Iterable

import numpy as np

from ... import _dtype, creation
from ..._argparse import checked
from ..._dtype import int64 as _int64
from ...ops.packed_sequence import pack_padded_sequence_backward as _pack_backward
from ...ops.registry import OPS
from ...tensor import Tensor

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence", "pad_packed_sequence", "pad_sequence",
           "unpad_sequence", "pack_sequence", "unpack_sequence"]

_empty_like = checked("empty_like", creation.empty_like)     # (PyTorch's TypeError for a list)

PackedSequence_ = collections.namedtuple("PackedSequence_", ["data", "batch_sizes", "sorted_indices",
                                                             "unsorted_indices"])


def bind(optional, fn):
    """fn(optional), or None for None (the indices of a PackedSequence made from sorted lengths)."""
    return None if optional is None else fn(optional)


class PackedSequence(PackedSequence_):
    """A packed batch: `data` holds the rows of every time step one step after another, `batch_sizes[t]`
    how many sequences are still running at step t; `sorted_indices` (when the batch was not given
    longest first) is the order packing put the sequences in, `unsorted_indices` its inverse.
    Made by pack_padded_sequence and pack_sequence, not by hand."""
    __slots__ = ()

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        return super().__new__(cls, *_packed_sequence_init_args(data, batch_sizes, sorted_indices,
                                                                unsorted_indices))

    # (batch_sizes always stays on the CPU as int64; only data, and the indices, follow .to())
    def pin_memory(self):
        return type(self)(self.data.pin_memory(), self.batch_sizes, bind(self.sorted_indices, lambda t: t.pin_memory()),
                          bind(self.unsorted_indices, lambda t: t.pin_memory()))

    def to(self, *args, **kwargs):
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        sorted_indices = bind(self.sorted_indices, lambda t: t.to(data.device))
        unsorted_indices = bind(self.unsorted_indices, lambda t: t.to(data.device))
        return type(self)(data, self.batch_sizes, sorted_indices, unsorted_indices)

    def cuda(self, *args, **kwargs):
        ex = creation.tensor((), dtype=self.data.dtype, device=self.data.device).to(*args, **kwargs)
        if ex.is_cuda:
            return self.to(*args, **kwargs)
        kwargs["device"] = "cuda"
        return self.to(*args, **kwargs)

    def cpu(self, *args, **kwargs):
        ex = creation.tensor((), dtype=self.data.dtype, device=self.data.device).to(*args, **kwargs)
        if ex.device.type == "cpu":
            return self.to(*args, **kwargs)
        kwargs["device"] = "cpu"
        return self.to(*args, **kwargs)

    def double(self):
        return self.to(dtype=_dtype.float64)

    def float(self):
        return self.to(dtype=_dtype.float32)

    def half(self):
        return self.to(dtype=_dtype.float16)

    def long(self):
        return self.to(dtype=_dtype.int64)

    def int(self):
        return self.to(dtype=_dtype.int32)

    def short(self):
        return self.to(dtype=_dtype.int16)

    def char(self):
        return self.to(dtype=_dtype.int8)

    def byte(self):
        return self.to(dtype=_dtype.uint8)

    @property
    def is_cuda(self):
        return self.data.is_cuda

    def is_pinned(self):
        return self.data.is_pinned()


def _packed_sequence_init_args(data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
    if unsorted_indices is None:
        unsorted_indices = invert_permutation(sorted_indices)
    if batch_sizes is not None:      # PackedSequence(data, batch_sizes, sorted_indices)
        if batch_sizes.device.type != "cpu":
            raise ValueError("batch_sizes should always be on CPU. Instances of PackedSequence should never be "
                             "created manually. They should be instantiated by functions like pack_sequence and "
                             "pack_padded_sequences in nn.utils.rnn. "
                             "https://pytorch.org/docs/stable/nn.html#torch.nn.utils.rnn.pack_sequence")
        return data, batch_sizes, sorted_indices, unsorted_indices
    # PackedSequence((data, batch_sizes), sorted_indices=...)
    if not (isinstance(data, (list, tuple)) and len(data) == 2):
        raise AssertionError("Expected data to be a list or tuple of length 2")
    return data[0], data[1], sorted_indices, unsorted_indices


def invert_permutation(permutation):
    """The permutation that undoes `permutation` (None stays None)."""
    if permutation is None:
        return None
    output = _empty_like(permutation)
    output.scatter_(0, permutation, creation.arange(0, permutation.numel(), device=permutation.device))
    return output


# --- PyTorch's C++ (aten/src/ATen/native/PackedSequence.cpp), with the same ops -----------------------------
_NOT_LONG = "'lengths' argument should be a 1D CPU int64 tensor, but got {}D {} {} tensor"


def _check_long_tensor(t):
    if t.dim() != 1 or t.device.type != "cpu" or t.dtype != _int64:
        raise RuntimeError(_NOT_LONG.format(t.dim(), t.device.type, t.dtype._legacy[:-len("Tensor")]))


def _argument(function, name, position, value, kind, ok):
    """PyTorch's argument parser's TypeError for a C function's argument of the wrong type."""
    if not ok:
        raise TypeError(f"{function}(): argument '{name}' (position {position}) must be {kind}, not "
                        f"{type(value).__name__}")


def _is_number(value):
    """What PyTorch's parser takes for a number (float or Scalar): a Python or numpy number, or a 0-d tensor
    that does not require grad."""
    if isinstance(value, Tensor):
        return value.dim() == 0 and not value.requires_grad
    return isinstance(value, (numbers.Number, np.number)) and not isinstance(value, np.datetime64)


def _pack_padded_sequence(input, lengths, batch_first):
    """(data, batch_sizes): the checks of PyTorch's _pack_padded_sequence, then its op-table row."""
    _argument("_pack_padded_sequence", "input", 1, input, "Tensor", isinstance(input, Tensor))
    _argument("_pack_padded_sequence", "lengths", 2, lengths, "Tensor", isinstance(lengths, Tensor))
    _argument("_pack_padded_sequence", "batch_first", 3, batch_first, "bool", isinstance(batch_first, bool))
    time_major = input.transpose(0, 1) if batch_first else input
    _check_long_tensor(lengths)
    batch_size = time_major.size(1)
    if input.numel() == 0:
        raise RuntimeError("Cannot pack empty tensors.")
    lengths = [int(v) for v in lengths._data]
    if len(lengths) != batch_size:
        raise RuntimeError(f"Expected `len(lengths)` to be equal to batch_size, but got {len(lengths)} "
                           f"(batch_size={batch_size})")
    if lengths[batch_size - 1] <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an element in 'lengths' "
                           "that is <= 0")
    if any(lengths[i + 1] > lengths[i] for i in range(batch_size - 1)):
        # (enforce_sorted is Python's; the check is C++'s: with enforce_sorted=False lengths arrive sorted)
        raise RuntimeError("`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. You "
                           "can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to sidestep "
                           "this requirement if you do not need ONNX exportability.")
    # batch_sizes[t]: how many lengths exceed t (lengths sorted, so the first ones)
    batch_sizes = np.array([sum(1 for n in lengths if n > t) for t in range(lengths[0])], np.int64)
    data = OPS["_pack_padded_sequence"](input, result1=batch_sizes, batch_first=bool(batch_first),
                                        input_sizes=tuple(input.shape))
    return data, creation.from_numpy(batch_sizes)


def _pad_packed_sequence(data, batch_sizes, batch_first, padding_value, total_length):
    """(padded output, lengths), as PyTorch's _pad_packed_sequence: a tensor full of padding_value, and each
    run of time steps with one batch size copied in from data."""
    name = "_pad_packed_sequence"
    _argument(name, "data", 1, data, "Tensor", isinstance(data, Tensor))
    _argument(name, "batch_sizes", 2, batch_sizes, "Tensor", isinstance(batch_sizes, Tensor))
    _argument(name, "batch_first", 3, batch_first, "bool", isinstance(batch_first, bool))
    _argument(name, "padding_value", 4, padding_value, "Number", _is_number(padding_value))
    _argument(name, "total_length", 5, total_length, "int", isinstance(total_length, (int, np.integer)) or (
        isinstance(total_length, Tensor) and total_length.dim() == 0 and total_length.dtype.is_floating_point is False))
    total_length = int(total_length)
    if isinstance(padding_value, Tensor):
        padding_value = padding_value.item()
    _check_long_tensor(batch_sizes)
    sizes = [int(b) for b in batch_sizes._data]
    max_batch_size, max_real_seq_length = sizes[0], len(sizes)
    max_seq_length = max_real_seq_length
    if total_length > 0:
        if total_length < max_seq_length:
            raise RuntimeError("Expected total_length to be at least the length of the longest sequence in input, "
                               f"but got total_length={total_length} and max sequence length being {max_seq_length}")
        max_seq_length = total_length
    rest = list(data.shape[1:])
    output = creation.full([max_seq_length, max_batch_size] + rest, padding_value, dtype=data.dtype,
                           device=data.device)
    lengths = [0] * max_batch_size
    data_offset, prev_batch_size, prev_i = 0, max_batch_size, 0
    for i in range(max_real_seq_length + 1):
        batch_size = sizes[i] if i != max_real_seq_length else 0
        if batch_size != prev_batch_size:
            n = prev_batch_size * (i - prev_i)
            tmp = data[data_offset:data_offset + n]
            output[prev_i:i][:, :prev_batch_size].copy_(tmp.view([i - prev_i, prev_batch_size] + rest))
            data_offset += n
            prev_i = i
        for j in range(batch_size, prev_batch_size):    # the sequences that ended at step i
            lengths[j] = i
        prev_batch_size = batch_size
    if batch_first:
        output = output.transpose(0, 1)
    return output, creation.tensor(lengths, dtype=_int64)


def _pack_padded_sequence_backward(grad, input_sizes, batch_sizes, batch_first):
    """PackPaddedSequenceBackward0's formula (what its readable text calls: ops/packed_sequence.py)."""
    if isinstance(batch_sizes, Tensor):
        batch_sizes = batch_sizes._data
    return _pack_backward(grad, input_sizes, batch_sizes, batch_first)


# --- the public functions ---------------------------------------------------------------------------------
def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """Packs a padded batch (time, batch, *) (batch_first: (batch, time, *)) of sequences of `lengths`.
    With enforce_sorted the lengths must be longest first; otherwise the batch is sorted here and the
    PackedSequence remembers the order (sorted_indices, unsorted_indices)."""
    if not isinstance(lengths, Tensor):
        lengths = creation.as_tensor(lengths, dtype=_int64, device="cpu")
    else:
        lengths = lengths.to(dtype=_int64)
    if enforce_sorted:
        sorted_indices = None
    else:
        lengths, sorted_indices = lengths.sort(descending=True)
        sorted_indices = sorted_indices.to(input.device)
        batch_dim = 0 if batch_first else 1
        input = input.index_select(batch_dim, sorted_indices)
    data, batch_sizes = _pack_padded_sequence(input, lengths, batch_first)
    return PackedSequence(data, batch_sizes, sorted_indices, None)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """The inverse of pack_padded_sequence: (padded tensor, lengths), padded to total_length steps if given."""
    max_seq_length = sequence.batch_sizes.size(0)
    if total_length is not None:
        if total_length < max_seq_length:
            raise ValueError("Expected total_length to be at least the length of the longest sequence in input, "
                             f"but got total_length={total_length} and max sequence length being {max_seq_length}")
        max_seq_length = total_length
    padded_output, lengths = _pad_packed_sequence(sequence.data, sequence.batch_sizes, batch_first, padding_value,
                                                  max_seq_length)
    unsorted_indices = sequence.unsorted_indices
    if unsorted_indices is not None:
        batch_dim = 0 if batch_first else 1
        return padded_output.index_select(batch_dim, unsorted_indices), lengths[unsorted_indices.cpu()]
    return padded_output, lengths


def _check_pad_arguments(sequences, batch_first, padding_value, padding_side):
    """torch._C._nn.pad_sequence's argument parser."""
    for i, s in enumerate(sequences):
        if not isinstance(s, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(s).__name__}")
    if not isinstance(batch_first, bool):
        raise TypeError(f"pad_sequence(): argument 'batch_first' (position 2) must be bool, not "
                        f"{type(batch_first).__name__}")
    if not _is_number(padding_value) or isinstance(padding_value, (complex, np.complexfloating)):
        raise TypeError(f"pad_sequence(): argument 'padding_value' (position 3) must be float, not "
                        f"{type(padding_value).__name__}")
    if not isinstance(padding_side, str):
        raise TypeError(f"pad_sequence(): argument 'padding_side' (position 4) must be str, not "
                        f"{type(padding_side).__name__}")


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Stacks sequences of different lengths into one tensor (time, batch, *) (batch_first: (batch, time, *)),
    the short ones filled with padding_value after their end (padding_side='left': before their start)."""
    if not isinstance(sequences, Iterable):
        raise RuntimeError(f"pad_sequence: Expected iterable for input sequences, but got arg of type: "
                           f"{type(sequences)}")
    sequences = tuple(sequences)
    _check_pad_arguments(sequences, batch_first, padding_value, padding_side)
    # PyTorch's C++ pad_sequence (aten/src/ATen/native/PackedSequence.cpp)
    if padding_side not in ("left", "right"):
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    if sequences[0].dim() == 0:
        raise RuntimeError("ArrayRef: invalid slice, N = 1; size = 0")
    trailing_dims = list(sequences[0].shape[1:])
    max_len = max(s.size(0) for s in sequences)
    out_dims = [len(sequences), max_len] if batch_first else [max_len, len(sequences)]
    padding_value = float(padding_value.item() if isinstance(padding_value, Tensor) else padding_value)
    out = creation.full(out_dims + trailing_dims, padding_value, dtype=sequences[0].dtype, device=sequences[0].device)
    for i, seq in enumerate(sequences):
        length = seq.size(0)
        start = max_len - length if padding_side == "left" else 0
        if batch_first:
            out.select(0, i).narrow(0, start, length).copy_(seq)
        else:
            out.narrow(0, start, length).select(1, i).copy_(seq)
    return out


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    """The list of sequences in a padded batch, each cut to its length. (As PyTorch's, it transposes
    padded_sequences in place when batch_first is False.)"""
    unpadded_sequences = []
    if not batch_first:
        padded_sequences.transpose_(0, 1)
    max_length = padded_sequences.shape[1]
    idx = creation.arange(max_length, device=lengths.device)
    for seq, length in zip(padded_sequences, lengths, strict=True):
        mask = idx < length
        unpadded_sequences.append(seq[mask])
    return unpadded_sequences


def pack_sequence(sequences, enforce_sorted=True):
    """pad_sequence then pack_padded_sequence: a list of sequences (longest first, unless
    enforce_sorted=False) packed."""
    lengths = creation.as_tensor([v.size(0) for v in sequences])
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    """The list of sequences in a PackedSequence, in their original order."""
    padded_sequences, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded_sequences, lengths, batch_first=True)
