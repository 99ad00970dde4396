"""Packing a padded batch of sequences (PyTorch's _pack_padded_sequence, aten/src/ATen/native/PackedSequence.cpp).

A padded batch is (time, batch, *) with the sequences sorted longest first. Packing keeps, for each time
step t, only the batch_sizes[t] sequences still running, and puts those rows one after another:

    time 0: a0 b0 c0        data = a0 b0 c0 a1 b1 a2        batch_sizes = [3, 2, 1]
    time 1: a1 b1 .
    time 2: a2 .  .

The gradient puts each row back where it came from, in zeros shaped like the padded input (the padding
gets no gradient). nn/utils/rnn.py computes batch_sizes and checks the lengths; the other functions there
(pad_sequence, pad_packed_sequence) are written with ordinary ops, as PyTorch writes them.
"""
import numpy as np

from .registry import op


def _rows(batch_sizes, steps):
    """(t, b) for each of the first `steps` time steps: where the packed rows sit in the padded input."""
    return [(t, int(b)) for t, b in enumerate(batch_sizes[:steps])]


def pack_padded_sequence_backward(g, input_sizes, batch_sizes, batch_first):
    """PyTorch's _pack_padded_sequence_backward: zeros shaped like the (time-major) input, each packed row
    copied back to its time step; transposed back when the input was batch-first."""
    sizes = list(input_sizes)
    if batch_first:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    rows = _rows(batch_sizes, len(batch_sizes))
    if isinstance(g, np.ndarray):       # a plain backward: numpy
        grad_input = np.zeros(sizes, g.dtype)
        offset = 0
        for t, b in rows:
            grad_input[t, :b] = g[offset:offset + b]
            offset += b
        return grad_input.swapaxes(0, 1) if batch_first else grad_input
    # create_graph: PyTorch's composite ops, so that the graph of the gradient is its graph (CopySlices)
    grad_input = g.new_zeros(sizes)
    offset = 0
    for t, b in rows:
        grad_input[t][0:b].copy_(g[offset:offset + b])
        offset += b
    return grad_input.transpose(0, 1) if batch_first else grad_input


# (gradlab._pack_padded_sequence, PyTorch's form of the row, takes the lengths: nn/utils/rnn.py writes it. The
# batch sizes are the row's `result1`, PyTorch's name for its second output, which its node saves:
# grad_fn._saved_result1)
@op("_pack_padded_sequence", "PackPaddedSequenceBackward0", ("input",), promote=False, cast_result=False,
    variants=("function",),
    shows={"input": "nn.utils.rnn._pack_padded_sequence_backward(grad, input_sizes, result1, batch_first)"},
    input=lambda g, n: pack_padded_sequence_backward(g, n.input_sizes, n.result1, n.batch_first))
def _pack_padded_sequence(input, result1, batch_first, input_sizes):
    """The packed rows of a padded input, result1 its batch sizes (checked: nn/utils/rnn.py)."""
    if batch_first:
        input = input.swapaxes(0, 1)
    # (a length past the input's time steps packs nothing for those steps, as PyTorch's clamped slice)
    steps = [input[t, :b] for t, b in _rows(result1, input.shape[0])]
    return np.ascontiguousarray(np.concatenate(steps, 0))
