"""Float (and complex) sums added in PyTorch's order, so that `loss.item()` prints PyTorch's last digits.

Floating-point addition is not associative: numpy (pairwise sums) and PyTorch (a cascade of vector
accumulators, aten/src/ATen/native/cpu/SumKernel.cpp) give sums that differ in the last bits, and a
training loop that prints `loss.item()` shows it. This file adds in PyTorch's order on one thread:

* along a contiguous row (`x.sum()`, a sum over the last dims, `row_sum`): the row is read as vectors
  of 8 floats (4 doubles: 256-bit registers, which PyTorch's sum kernel uses here), four vectors side by
  side, each lane summed with four levels of accumulators (`multi_row_sum`: no accumulator adds more
  than 2**k numbers of similar size), then the leftover numbers and the lanes one by one;
* across rows (a sum over the first dims, `outer_sum`): each column is summed down the rows with the
  same cascade;
* float16 numbers are added in float32, PyTorch's `opmath` type.

A full sum of more than 32,768 numbers is split as PyTorch splits it among threads (two_pass_reduction:
one slice per thread, the slices' sums added in thread order). Other sums PyTorch would split over threads
and other layouts keep numpy's order, which differs only in the last bits. (Measured against torch: every generated case agrees bit
for bit, tests/ops/test_summation_order.py.)
"""
import math

import numpy as np

from .. import _parallel

VECTOR_BYTES = 32       # 256-bit vectors: 8 float32 or 4 float64 lanes
_ILP = 4                # vectors summed side by side (instruction-level parallelism)
_LEVELS = 4
GRAIN = 32768           # above this, PyTorch's parallel_reduce splits the sum between threads


_F32 = np.float32


def _ceil_log2(n):
    return 0 if n <= 1 else (n - 1).bit_length()


def multi_row_sum(rows):
    """PyTorch's multi_row_sum: rows (size, ...) summed down axis 0, each block of 2**power rows added
    one after another, block sums carried up four levels of accumulators."""
    size = rows.shape[0]
    if 1 < size < 16 and rows.flags.c_contiguous and rows[0].size > 1:     # no block fills: one running sum
        return np.add.reduce(rows.reshape(size, -1), axis=0).reshape(rows.shape[1:]) + 0.0
    power = max(4, _ceil_log2(size) // _LEVELS)
    step = 1 << power
    mask = step - 1
    zero = np.zeros(rows.shape[1:], rows.dtype)
    acc = [zero] * _LEVELS
    blocks = size // step
    if blocks:
        # each block's rows in order (numpy reduces the middle axis of a C-contiguous array row by row)
        sums = np.add.reduce(np.ascontiguousarray(rows[:blocks * step]).reshape((blocks, step, -1)), axis=1)
        sums = sums.reshape((blocks,) + rows.shape[1:])
    if 0 < blocks < (1 << power):       # (the usual case) every block sum lands in acc[1], in order
        total = (np.add.reduce(sums, axis=0) if blocks > 1 and sums[0].size > 1 else
                 np.cumsum(sums.reshape(blocks, -1), axis=0)[-1].reshape(rows.shape[1:]))
        rest = rows[blocks * step:]
        if len(rest):                   # the leftover rows in acc[0], added to acc[1] at the end
            flat = np.ascontiguousarray(rest).reshape(len(rest), -1)
            summed = np.add.reduce(flat, axis=0) if flat.shape[1] > 1 else np.cumsum(flat[:, 0])[-1:]
            total = summed.reshape(rows.shape[1:]) + total
        # (PyTorch's accumulators start from 0: that differs only in the sign of an all -0 sum, which
        # adding 0 at the end gives as PyTorch's)
        return total + zero
    if blocks:
        for b in range(blocks):
            acc[0] = zero + sums[b]
            i = (b + 1) * step
            for j in range(1, _LEVELS):
                acc[j] = acc[j] + acc[j - 1]
                acc[j - 1] = zero
                if i & (mask << (j * power)):
                    break
    rest = rows[blocks * step:]
    if len(rest):                                 # acc[0] is zero here: the leftover rows in order
        flat = np.ascontiguousarray(rest).reshape(len(rest), -1)
        summed = np.add.reduce(flat, axis=0) if flat.shape[1] > 1 else np.cumsum(flat[:, 0])[-1:]
        acc[0] = zero + summed.reshape(rows.shape[1:])
    for j in range(1, _LEVELS):
        acc[0] = acc[0] + acc[j]
    return acc[0]


def _row_sum(rows):
    """PyTorch's row_sum down axis 0 of rows (size, ...): read as groups of four rows side by side."""
    size_ilp = rows.shape[0] // _ILP
    if 1 < size_ilp < 16 and rows.ndim == 2 and rows.flags.c_contiguous:
        # (the usual small case, in two reductions: no block of 16 fills, so multi_row_sum is one running
        # sum per row position; then the first partial, the leftover rows and the other partials in order)
        k = rows.shape[1]
        partial = np.add.reduce(rows[:size_ilp * _ILP].reshape(size_ilp, _ILP * k), axis=0).reshape(_ILP, k)
        order = np.concatenate((partial[:1], rows[size_ilp * _ILP:], partial[1:]))
        return np.add.reduce(order, axis=0) + 0.0 if k > 1 else np.cumsum(order[:, 0])[-1:] + 0.0
    if 16 <= size_ilp < 256 and rows.ndim == 2:
        # (a batch of 64 to 1023 rows, as a bias's gradient: multi_row_sum's usual case written out.
        # Each block of 16 groups summed in order, the block sums in order, the groups left over in
        # order and added first; PyTorch's sums from 0 differ from these only in the sign of an all
        # -0 sum, which the + 0.0 at the end gives as PyTorch's)
        k = rows.shape[1]
        full = size_ilp // 16 * 16
        groups = np.ascontiguousarray(rows[:size_ilp * _ILP]).reshape(size_ilp, _ILP * k)
        sums = np.add.reduce(groups[:full].reshape(full // 16, 16, _ILP * k), axis=1)
        blocks = np.add.reduce(sums, axis=0) if full > 16 else sums[0]
        if full < size_ilp:
            blocks = np.add.reduce(groups[full:], axis=0) + blocks
        partial = blocks.reshape(_ILP, k)
        order = np.concatenate((partial[:1], rows[size_ilp * _ILP:], partial[1:]))
        return np.add.reduce(order, axis=0) + 0.0 if k > 1 else np.cumsum(order[:, 0])[-1:] + 0.0
    grouped = rows[:size_ilp * _ILP].reshape((size_ilp, _ILP) + rows.shape[1:])
    partial = multi_row_sum(grouped)              # (4, ...)
    first = partial[0].copy()
    for r in rows[size_ilp * _ILP:]:
        first += r
    for k in range(1, _ILP):
        first += partial[k]
    return first


def _acc_type(dtype):
    return np.dtype(np.float32) if dtype == np.float16 else dtype


def _short_row(x):
    """One contiguous row whose vectors fill fewer than 16 groups of four (fewer than 512 float32): the
    same order as inner_sums, in a few numpy calls (cumsum and the reduction down axis 0 of a
    C-contiguous block add strictly in order)."""
    n = x.shape[0]
    lanes = VECTOR_BYTES // x.dtype.itemsize
    if n < lanes:                                  # the scalar path: x0, x4, x5, x6, then x1, x2, x3
        order = x if n <= 4 else np.concatenate((x[:1], x[4:], x[1:4]))
        return np.cumsum(order)[-1]
    nv = n // lanes
    size_ilp = nv // _ILP
    width = _ILP * lanes
    if size_ilp:
        groups = np.add.reduce(x[:size_ilp * width].reshape(size_ilp, width), axis=0) if size_ilp > 1 else \
            x[:width]
        parts = np.concatenate((groups, x[size_ilp * width:nv * lanes])).reshape(-1, lanes)
        # rows: the four partial vectors, then the leftover vectors (added into the first)
        first = np.add.reduce(np.concatenate((parts[:1], parts[_ILP:])), axis=0) if len(parts) > _ILP else parts[0]
        lanes_sum = np.add.reduce(np.concatenate((first[None], parts[1:_ILP])), axis=0)
    else:
        lanes_sum = np.add.reduce(x[:nv * lanes].reshape(nv, lanes), axis=0) if nv > 1 else x[:lanes]
    return np.cumsum(np.concatenate((x[nv * lanes:], lanes_sum)))[-1]


def inner_sums(rows):
    """The sum of each row of a C-contiguous (m, n) block, as PyTorch's sum kernel adds a contiguous row."""
    acc = _acc_type(rows.dtype)
    rows = rows.astype(acc, copy=False)
    m, n = rows.shape
    lanes = VECTOR_BYTES // rows.dtype.itemsize
    if n < lanes:                                 # too short for one vector: the scalar path
        return _row_sum(np.ascontiguousarray(rows.T))
    nv = n // lanes
    vectors = rows[:, :nv * lanes].reshape(m, nv, lanes).transpose(1, 0, 2)     # (nv, m, lanes)
    partial = _row_sum(np.ascontiguousarray(vectors))                           # (m, lanes)
    # from 0: the leftover numbers, then the lanes, one by one (cumsum adds in order)
    return np.cumsum(np.concatenate((rows[:, nv * lanes:], partial), axis=1), axis=1)[:, -1]


def outer_sum(block):
    """Column sums of a C-contiguous (rows, cols) block, each column added down the rows as PyTorch does."""
    acc = _acc_type(block.dtype)
    block = block.astype(acc, copy=False)
    cols = block.shape[1]
    lanes = VECTOR_BYTES // block.dtype.itemsize
    wide = cols // (_ILP * lanes) * (_ILP * lanes)            # four vectors of columns at a time
    out = np.empty(cols, acc)
    if cols < lanes:                              # the scalar path: four columns at a time, then one by one
        wide = cols // _ILP * _ILP
        if wide:
            out[:wide] = multi_row_sum(block[:, :wide])
        if cols > wide:
            out[wide:] = _row_sum(block[:, wide:])
        return out
    if wide:
        out[:wide] = multi_row_sum(block[:, :wide])
    if cols > wide:
        # the vector of columns (row_sum on vectors) and the single columns after it (row_sum on numbers)
        # add each column in the same order, lane by lane or one by one: one call for both
        out[wide:] = _row_sum(block[:, wide:])
    return out


def torch_sum(a, axes=None, dtype=None):
    """a summed over `axes` (a tuple of dims; None or all of them for a full sum) in PyTorch's order, as
    an array of `dtype` (default a's dtype), or None where this file does not model PyTorch's order (the caller then sums
    with numpy)."""
    if a.dtype.kind not in "fc" or a.size == 0:    # (complex: vectors of complex numbers, added part by part)
        return None
    n = a.ndim
    out = a.dtype if dtype is None else np.dtype(dtype)
    if axes is None or len(axes) == n:
        if not a.flags.c_contiguous:        # a full sum walks a dense block in memory order (TensorIterator)
            if not _dense(a):
                return None
            a = a.ravel(order="K")
        return _full(a.reshape(-1), out, ()) if a.size <= GRAIN else _split_full(a.reshape(-1), out)
    if not a.flags.c_contiguous:
        return None
    if a.size > GRAIN:
        return None
    axes = sorted(d % n for d in axes)
    reduced = math.prod(a.shape[d] for d in axes)
    kept = tuple(a.shape[d] for d in range(n) if d not in axes)
    if reduced == a.size:
        return _full(a.reshape(-1), out, kept)
    if reduced == 1:
        return None
    if axes == list(range(n - len(axes), n)):                    # the last dims: each row inward
        return inner_sums(a.reshape(-1, reduced)).astype(out).reshape(kept)
    if axes == list(range(len(axes))):                           # the first dims: down the columns
        return outer_sum(a.reshape(reduced, -1)).astype(out).reshape(kept)
    return None


def _dense(a):
    """Whether a's numbers fill one block of memory, in some order of its dims with positive strides."""
    dims = sorted((s, n) for s, n in zip(a.strides, a.shape) if n > 1)
    step = a.itemsize
    for s, n in dims:
        if s != step:
            return False
        step *= n
    return True


def _split_full(flat, dtype):
    """A full sum of more than GRAIN numbers (ATen's two_pass_reduction): on one thread the whole row as
    below; else equal slices, one per thread (parallel_for), each summed into its own buffer from 0,
    then the buffers added in thread order."""
    threads = _parallel.get_num_threads()
    if threads == 1:
        return _full(flat, dtype, ())
    n = flat.size
    size = -(-n // min(threads, -(-n // GRAIN)))
    acc = _acc_type(flat.dtype)
    # (the buffers hold the result's dtype: a float16 sum's slices are rounded to float16 before they are added)
    partial = [_full(flat[b:b + size], dtype, ()) for b in range(0, n, size)]
    total = dtype.type(0)
    for p in partial:
        total = dtype.type(acc.type(total) + acc.type(p))
    return np.asarray(total, dtype)


def _full(flat, dtype, shape):
    acc = _acc_type(flat.dtype)
    if flat.size < 8 and acc == np.float32:     # the scalar path, in Python floats rounded to float32 after
        values = flat.tolist()                  # each add (exact: float64 holds any float32 sum unrounded)
        order = values if len(values) <= 4 else values[:1] + values[4:] + values[1:4]
        total = 0.0
        for v in order:
            total = _F32(total + v)
        return np.array(total, dtype).reshape(shape)
    flat = flat.astype(acc, copy=False)
    if flat.size <= min(4, VECTOR_BYTES // flat.dtype.itemsize):   # added in order from 0
        total = np.cumsum(flat)[-1] if flat.size > 1 else flat[0] + acc.type(0)
    elif flat.size < _ILP * 16 * VECTOR_BYTES // flat.dtype.itemsize:
        total = _short_row(flat)
    else:
        total = inner_sums(flat.reshape(1, -1))[0]
    return np.asarray(total, dtype).reshape(shape)



def add_reduce(x, axis=None, keepdims=False, dtype=None):
    """np.add.reduce(x, axis, keepdims=, dtype=) in PyTorch's order where this file models it (float
    sums of up to GRAIN numbers of a contiguous array, in x's dtype, or float16 summed into float32)."""
    if x.ndim == 0:          # a 0-d tensor's dim 0 (or -1) is the tensor itself, as PyTorch wraps a scalar's dim
        axis = None
    if axis is None and x.size <= 4 and dtype is None and x.dtype.kind == "f" and x.dtype != np.float16:
        # up to 4 numbers both add one after another (numpy from the first, PyTorch from 0: + 0.0 makes
        # a sum of negative zeros +0 as PyTorch's)
        total = np.add.reduce(x, axis=None, keepdims=keepdims) + 0.0
        return total.astype(x.dtype, copy=False) if keepdims else x.dtype.type(total)
    if x.dtype.kind in "fc" and (dtype is None or np.dtype(dtype) == x.dtype or
                                (x.dtype == np.float16 and np.dtype(dtype) == np.float32)):
        axes = None if axis is None else (axis,) if isinstance(axis, int) else tuple(axis)
        total = torch_sum(x, axes, dtype)
        if total is not None:
            if keepdims:
                reduced = range(x.ndim) if axes is None else [a % x.ndim for a in axes]
                total = total.reshape([1 if d in reduced else s for d, s in enumerate(x.shape)])
            return total
    return np.add.reduce(x, axis=axis, keepdims=keepdims, dtype=dtype)


_CASCADE_LEVELS = 8


def cascade_sum(terms, positions, count):
    """sum(terms) in the order of ATen's loss kernels (nll_loss, nll_loss2d): a cascade of 8 partial sums,
    the term of sample `position` added to level 0, and level j added into level j+1 (then cleared) after
    each term whose position is a multiple of 2**(p * (j + 1)), p = max(4, ceil_log2(count) // 8); the
    result is 0 + level 0 + ... + level 7. terms (1-d, the sum's dtype) belong to increasing positions (the
    samples not ignored, out of `count`)."""
    dtype = terms.dtype.type
    power = max(4, _ceil_log2(count) // _CASCADE_LEVELS)
    if 1 < terms.size == count <= 1 << (2 * power):
        return _every_sample_sum(terms, power, dtype)
    partials = [dtype(0)] * _CASCADE_LEVELS
    for level in range(_CASCADE_LEVELS):
        if terms.size <= 1:                     # one term left: it climbs while its position is flushed
            if terms.size:
                while level < _CASCADE_LEVELS - 1 and positions[0] % (1 << (power * (level + 1))) == 0:
                    level += 1
                partials[level] = dtype(dtype(0) + terms[0])
            break
        if level == _CASCADE_LEVELS - 1:        # the last level is never flushed
            partials[level] = _running_sums(terms, np.zeros(terms.size, bool))[1]
            break
        flush = positions % (1 << (power * (level + 1))) == 0
        flushed, partials[level] = _running_sums(terms, flush)
        terms, positions = flushed, positions[flush]
    total = dtype(0)
    for p in partials:
        total = dtype(total + p)
    return total


@np.errstate(all="ignore")          # (as a decorator: half the cost of a `with` block, see vectorized/core.py's _quiet)
def _every_sample_sum(terms, power, dtype):
    """cascade_sum of a batch with no sample left out (a training step's loss), in few numpy calls: sample 0
    climbs to the last level; samples 1-16, 17-32, ... (2**power each) are added in level 0 and passed to
    level 1, which is flushed only at sample 0; the samples after the last full group stay in level 0.
    (numpy's warnings off: an overflow to inf is part of the arithmetic.)"""
    step = 1 << power
    full = (terms.size - 1) // step
    zero = dtype(0)
    rest = terms[1 + full * step:]
    level0 = np.add.accumulate(rest)[-1] + zero if rest.size else zero
    if full:
        groups = np.add.accumulate(terms[1:1 + full * step].reshape(full, step), axis=1)[:, -1] + zero
        level1 = np.add.accumulate(groups)[-1] + zero
    else:
        level1 = zero
    return dtype(dtype(dtype(zero + level0) + level1) + dtype(zero + terms[0]))


def _running_sums(terms, flush):
    """One level of the cascade: the terms added in order to a sum that starts at 0 and is passed on (and
    restarted) after each term marked `flush`. Returns (the sums passed on, the sum left at the end)."""
    n = terms.size
    closes = np.cumsum(flush)
    group = closes - flush                      # a flushed term belongs to the group it closes
    starts = np.concatenate(([0], np.flatnonzero(flush) + 1))
    within = np.arange(n) - starts[group]
    table = np.zeros((starts.size, int(within.max()) + 1), terms.dtype)
    table[group, within] = terms
    with np.errstate(all="ignore"):             # (accumulate is sequential along a row; the zeros padding a
        sums = np.add.accumulate(table, axis=1)[:, -1] + terms.dtype.type(0)   # row's end, and + 0, turn
    return sums[:-1], sums[-1]                  # -0 into the +0 that a sum starting at 0 gives)
