"""Ops: sorting and selection (sort, topk, kthvalue, median, mode, cumprod, cummax/cummin).

The values of a sort or a selection are picked from the input at indices the Tensor layer
(`_tensor_methods/sorting.py`) computes with the functions below, so every op here is a gather
along `dim` whose gradient puts `g` back at those indices (PyTorch's
value_selecting_reduction_backward). Where equal values leave the choice of index open, PyTorch's
CPU kernels decide it by the exact algorithm they run: libstdc++'s `std::sort` (introsort),
`std::nth_element` (introselect) and `std::partial_sort` (heap select), and TH's quickselect for
kthvalue. Those algorithms are written out here step by step on (key, index) pairs, and run only
for rows that hold ties (any correct sort gives the same indices otherwise).
"""
import numpy as np

from . import dual
from .formula_text import shows
from .reduction import _CPU_ACC_TYPE, _evenly_distribute_grad, _index_grad, _sum_dtype
from .registry import op, preserved_layout, torch_layout
from .shape import _zeros_for


# --- libstdc++'s algorithms on a list of (key, index) pairs, compared by key with `<` -------------

_THRESHOLD = 16          # libstdc++'s _S_threshold: introsort leaves runs this short to insertion sort


def _lg(n):
    return n.bit_length() - 1


def std_sort(a):
    """std::sort(a.begin(), a.end(), comp) with comp comparing the keys."""
    n = len(a)
    if n > 1:
        _introsort_loop(a, 0, n, 2 * _lg(n))
        _final_insertion_sort(a, 0, n)


def _introsort_loop(a, first, last, depth):
    while last - first > _THRESHOLD:
        if depth == 0:
            std_partial_sort(a, first, last, last)
            return
        depth -= 1
        cut = _unguarded_partition_pivot(a, first, last)
        _introsort_loop(a, cut, last, depth)
        last = cut


def _unguarded_partition_pivot(a, first, last):
    mid = first + (last - first) // 2
    _move_median_to_first(a, first, first + 1, mid, last - 1)
    return _unguarded_partition(a, first + 1, last, a[first][0])


def _move_median_to_first(a, result, i, j, k):
    x, y, z = a[i][0], a[j][0], a[k][0]
    if x < y:
        pick = j if y < z else (k if x < z else i)
    elif x < z:
        pick = i
    else:
        pick = k if y < z else j
    a[result], a[pick] = a[pick], a[result]


def _unguarded_partition(a, first, last, pivot):
    while True:
        while a[first][0] < pivot:
            first += 1
        last -= 1
        while pivot < a[last][0]:
            last -= 1
        if not first < last:
            return first
        a[first], a[last] = a[last], a[first]
        first += 1


def _insertion_sort(a, first, last):
    for i in range(first + 1, last):
        v = a[i]
        if v[0] < a[first][0]:
            a[first + 1:i + 1] = a[first:i]
            a[first] = v
        else:
            _unguarded_linear_insert(a, i)


def _unguarded_linear_insert(a, last):
    v = a[last]
    before = last - 1
    while v[0] < a[before][0]:
        a[last] = a[before]
        last = before
        before -= 1
    a[last] = v


def _final_insertion_sort(a, first, last):
    if last - first > _THRESHOLD:
        _insertion_sort(a, first, first + _THRESHOLD)
        for i in range(first + _THRESHOLD, last):
            _unguarded_linear_insert(a, i)
    else:
        _insertion_sort(a, first, last)


def _adjust_heap(a, first, hole, length, value):
    top = second = hole
    while second < (length - 1) // 2:
        second = 2 * (second + 1)
        if a[first + second][0] < a[first + second - 1][0]:
            second -= 1
        a[first + hole] = a[first + second]
        hole = second
    if length % 2 == 0 and second == (length - 2) // 2:
        second = 2 * (second + 1)
        a[first + hole] = a[first + second - 1]
        hole = second - 1
    parent = (hole - 1) // 2
    while hole > top and a[first + parent][0] < value[0]:
        a[first + hole] = a[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    a[first + hole] = value


def _make_heap(a, first, last):
    length = last - first
    if length < 2:
        return
    for parent in range((length - 2) // 2, -1, -1):
        _adjust_heap(a, first, parent, length, a[first + parent])


def _pop_heap(a, first, last, result):
    value = a[result]
    a[result] = a[first]
    _adjust_heap(a, first, 0, last - first, value)


def _heap_select(a, first, middle, last):
    _make_heap(a, first, middle)
    for i in range(middle, last):
        if a[i][0] < a[first][0]:
            _pop_heap(a, first, middle, i)


def std_partial_sort(a, first, middle, last):
    """std::partial_sort(first, middle, last)."""
    _heap_select(a, first, middle, last)
    while middle - first > 1:
        middle -= 1
        _pop_heap(a, first, middle, middle)


def std_nth_element(a, nth):
    """std::nth_element(a.begin(), a.begin() + nth, a.end())."""
    first, last = 0, len(a)
    if nth >= last:
        return
    depth = 2 * _lg(last)
    while last - first > 3:
        if depth == 0:
            _heap_select(a, first, nth + 1, last)
            a[first], a[nth] = a[nth], a[first]
            return
        depth -= 1
        cut = _unguarded_partition_pivot(a, first, last)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(a, first, last)


def th_quickselect(a, k):
    """TH's quick_select_template (Sedgewick's), as kthvalue runs it: compares keys with `>`."""
    lo, hi = 0, len(a) - 1
    while True:
        if hi <= lo:
            return
        if hi == lo + 1:
            if a[lo][0] > a[hi][0]:
                a[lo], a[hi] = a[hi], a[lo]
            return
        mid = (lo + hi) >> 1
        a[mid], a[lo + 1] = a[lo + 1], a[mid]
        if a[lo + 1][0] > a[hi][0]:
            a[lo + 1], a[hi] = a[hi], a[lo + 1]
        if a[lo][0] > a[hi][0]:
            a[lo], a[hi] = a[hi], a[lo]
        if a[lo + 1][0] > a[lo][0]:
            a[lo + 1], a[lo] = a[lo], a[lo + 1]
        i, j = lo + 1, hi
        pivot = a[lo][0]
        while True:
            i += 1
            while pivot > a[i][0]:
                i += 1
            j -= 1
            while a[j][0] > pivot:
                j -= 1
            if j < i:
                break
            a[i], a[j] = a[j], a[i]
        a[lo], a[j] = a[j], a[lo]
        if j <= k:
            lo = i
        if j >= k:
            hi = j - 1


# --- rows and keys ------------------------------------------------------------------------------

def rows(x, dim):
    """x with `dim` moved last, as a 2-d array of rows (a 0-d x is one row of one)."""
    if x.ndim == 0:
        return x.reshape(1, 1)
    others = int(np.prod([s for i, s in enumerate(x.shape) if i != dim]))
    return np.moveaxis(x, dim, -1).reshape(others, x.shape[dim])


def unrows(r, shape, dim):
    """The inverse of `rows` for a result whose `dim` has r.shape[1] entries."""
    if not shape:
        return r.reshape(())
    moved = [s for i, s in enumerate(shape) if i != dim] + [r.shape[1]]
    return _c_array(np.moveaxis(r.reshape(moved), -1, dim))


def _c_array(a):
    """A C-contiguous copy of a with PyTorch's strides (numpy's may differ on dims of size 1)."""
    out = np.empty(a.shape, a.dtype)
    out[...] = a
    return out


def _reduced(out, shape, dim):
    """A per-row result (one value per row) shaped like a reduction over dim."""
    return out.reshape([s for d, s in enumerate(shape) if d != dim])


def keys_of(r):
    """Integer keys ordered as PyTorch's comparators order the values: nan above everything (all
    nans equal), -0.0 equal to 0.0."""
    if not r.size:
        return np.zeros(r.shape, np.int64)
    return np.unique(r, return_inverse=True)[1].reshape(r.shape).astype(np.int64)


def has_ties(keys):
    """Which rows of a 2-d array of keys hold equal keys."""
    if keys.shape[1] < 2:
        return np.zeros(keys.shape[0], bool)
    s = np.sort(keys, axis=1)
    return (s[:, 1:] == s[:, :-1]).any(axis=1)


def sort_indices(x, dim, descending, stable):
    """PyTorch's CPU sort order along dim: a stable sort, or std::sort when not stable (which agrees
    with a stable sort for rows of up to 16 or without ties)."""
    keys = keys_of(rows(x, dim))
    signed = -keys if descending else keys
    out = np.argsort(signed, axis=1, kind="stable")
    if not stable and keys.shape[1] > _THRESHOLD:
        for i in np.nonzero(has_ties(keys))[0]:
            pairs = list(zip(signed[i].tolist(), range(keys.shape[1])))
            std_sort(pairs)
            out[i] = [j for _, j in pairs]
    # (laid out like the input, as PyTorch lays out sort's values and indices: TensorIterator's order, or an
    # empty input's own strides)
    if not x.size or 1 in x.shape:      # (sort allocates both with self's strides when self is dense)
        return preserved_layout(unrows(out, x.shape, dim), x)
    return torch_layout(None, unrows(out, x.shape, dim), [x])


def topk_indices(x, k, dim, largest, sorted):
    """PyTorch's CPU topk: partial_sort when k * 64 <= n, else nth_element (then std::sort of the
    first k - 1 when sorted)."""
    keys = keys_of(rows(x, dim))
    n = keys.shape[1]
    signed = -keys if largest else keys
    out = np.argsort(signed, axis=1, kind="stable")[:, :k].astype(np.int64)
    emulate = has_ties(keys) | (not sorted and k * 64 > n)
    for i in np.nonzero(emulate)[0] if k else ():
        pairs = list(zip(signed[i].tolist(), range(n)))
        if k * 64 <= n:
            std_partial_sort(pairs, 0, k, n)
        else:
            std_nth_element(pairs, k - 1)
            if sorted:
                head = pairs[:k - 1]
                std_sort(head)
                pairs[:k - 1] = head
        out[i] = [j for _, j in pairs[:k]]
    return unrows(out, x.shape, dim)


def kthvalue_indices(x, k, dim):
    """The index kthvalue picks in each row (TH's quickselect; nan counts as the largest)."""
    keys = keys_of(rows(x, dim))
    out = np.argsort(keys, axis=1, kind="stable")[:, k - 1].astype(np.int64)
    for i in np.nonzero(has_ties(keys))[0]:
        pairs = list(zip(keys[i].tolist(), range(keys.shape[1])))
        th_quickselect(pairs, k - 1)
        out[i] = pairs[k - 1][1]
    return _reduced(out, x.shape, dim)


def median_indices(x, dim, ignore_nan):
    """median(dim)'s index: the ((n - 1) // 2)-th in a stable order (PyTorch's comparator breaks ties
    by index), or the first nan; nanmedian leaves the nans out of the count."""
    r = rows(x, dim)
    order = np.argsort(r, axis=1, kind="stable")       # (nans last)
    nans = np.isnan(r) if r.dtype.kind == "f" else np.zeros(r.shape, bool)
    counts = nans.sum(axis=1)
    if ignore_nan:
        out = order[np.arange(r.shape[0]), np.maximum((r.shape[1] - counts - 1) // 2, 0)]
    else:
        out = np.where(counts > 0, np.argmax(nans, axis=1), order[:, (r.shape[1] - 1) // 2])
    return _reduced(out.astype(np.int64), x.shape, dim)


def mode_indices(x, dim):
    """mode's values and indices: std::sort of (value, index) by value (`<`, as PyTorch's), then the
    longest run (the smallest value among equally long runs), reported at its last sorted index."""
    r = rows(x, dim)
    n = r.shape[1]
    values = np.empty(r.shape[0], x.dtype)
    out = np.empty(r.shape[0], np.int64)
    nan_rows = np.isnan(r).any(axis=1) if r.dtype.kind == "f" else np.zeros(r.shape[0], bool)
    tied = has_ties(keys_of(r))
    orders = np.argsort(r, axis=1, kind="stable")
    for i in range(r.shape[0]):
        row = r[i].tolist()
        if nan_rows[i] or (tied[i] and n > _THRESHOLD):
            pairs = list(zip(row, range(n)))
            std_sort(pairs)
        else:
            pairs = [(row[j], j) for j in orders[i].tolist()]
        best, best_at, run = 0, 0, 0
        for j in range(n):
            run += 1
            if j == n - 1 or pairs[j][0] != pairs[j + 1][0]:
                if run > best:
                    best, best_at = run, j
                run = 0
        out[i] = pairs[best_at][1]
        values[i] = r[i, out[i]]
    return _reduced(values, x.shape, dim), _reduced(out, x.shape, dim)


def cumulative_extreme_indices(x, dim, largest):
    """cummax/cummin's indices: the last position so far whose value reached the running extreme
    (PyTorch's `>=` / `<=`), each nan once one is seen."""
    if x.ndim == 0:
        return np.zeros((), np.int64)
    acc = (np.maximum if largest else np.minimum).accumulate(x, axis=dim)
    hit = x == acc
    if x.dtype.kind in "fc":
        hit |= np.isnan(x)
    positions = np.arange(x.shape[dim]).reshape([-1 if d == dim else 1 for d in range(x.ndim)])
    return _c_array(np.maximum.accumulate(np.where(hit, positions, 0), axis=dim).astype(np.int64))


# --- the ops ----------------------------------------------------------------------------------

def _along(self, indices, dim):
    """self's values at `indices` along dim (indices shaped like the result)."""
    if self.ndim == 0:                  # (a copy: sort's values are a new tensor, never a view of the input)
        return self.reshape(indices.shape).copy() if indices.size == self.size else self.reshape(-1)[indices]
    return np.take_along_axis(self, indices, dim)


@shows("grad.new_zeros(self_sizes).scatter(dim, indices, grad)")
def _scatter_grad(g, n):
    """sort/topk: g written back at the picked indices of zeros shaped like the input (PyTorch's
    value_selecting_reduction_backward: a scatter, ScatterBackward0 under create_graph)."""
    if not n.self_sizes:                # (a 0-d input is its own sort and top-k: 0-d results)
        return g
    return dual.call("scatter", _zeros_for(g, n), g, dim=n.dim, index=n.indices, src_sizes=dual.data(g).shape)


@op("sort", "SortBackward0", variants=("function", "method"), self=_scatter_grad)
def sort(self, dim, indices, self_sizes):
    return _along(self, indices, dim)


@op("sort_stable", "SortBackward1", self=_scatter_grad)
def sort_stable(self, dim, indices, self_sizes):
    """sort(stable=...): PyTorch's other overload, with its own node name."""
    return _along(self, indices, dim)


@op("topk", "TopkBackward0", variants=("function", "method"), self=_scatter_grad)
def topk(self, dim, indices, self_sizes):
    return _contiguous(_along(self, indices, dim))


def _picked(self, dim, keepdim, indices):
    if self.ndim == 0:
        return self.copy()
    d = dim[0]
    return np.take_along_axis(self, np.expand_dims(indices.reshape(
        [s for i, s in enumerate(self.shape) if i != d]), d), d).reshape(indices.shape)


# (kthvalue, median(dim), mode: _index_grad's text, as max(dim)'s: grad written at the picked index)
@op("kthvalue", "KthvalueBackward0", variants=("function", "method"), self=_index_grad)
def kthvalue(self, dim, keepdim, indices, self_sizes):
    return _picked(self, dim, keepdim, indices)


@op("median_dim", "MedianBackward1", self=_index_grad)
def median_dim(self, dim, keepdim, indices, self_sizes):
    return _picked(self, dim, keepdim, indices)


@op("nanmedian_dim", "NanmedianBackward1", self=_index_grad)
def nanmedian_dim(self, dim, keepdim, indices, self_sizes):
    return _picked(self, dim, keepdim, indices)


@op("mode", "ModeBackward0", variants=("function", "method"), self=_index_grad)
def mode(self, dim, keepdim, indices, self_sizes):
    return _picked(self, dim, keepdim, indices)


# median, nanmedian: grad shared by the inputs equal to the result (the nans, when it is nan: equal_nan), as
# PyTorch's evenly_distribute_backward
_EVENLY_DISTRIBUTED = ("where(isclose(self, result, rtol=0, atol=0, equal_nan=True), "
                       "grad / isclose(self, result, rtol=0, atol=0, equal_nan=True).sum(), 0)")


@op("median", "MedianBackward0", variants=("function", "method"),
    saves=("self", "result"), shows={"self": _EVENLY_DISTRIBUTED}, self=_evenly_distribute_grad)
def median(self):
    flat = self.reshape(-1)
    if not flat.size or np.isnan(flat).any():
        return np.asarray(np.nan, self.dtype)
    return np.partition(flat, (flat.size - 1) // 2)[(flat.size - 1) // 2]


@op("nanmedian", "NanmedianBackward0", variants=("function", "method"),
    saves=("self", "result"), shows={"self": _EVENLY_DISTRIBUTED}, self=_evenly_distribute_grad)
def nanmedian(self):
    flat = self.reshape(-1)
    kept = flat[~np.isnan(flat)]
    if not kept.size:
        return np.asarray(np.nan, self.dtype)
    return np.partition(kept, (kept.size - 1) // 2)[(kept.size - 1) // 2]


@shows("zeros_like(self).scatter_add(dim, indices, grad)")
def _cummaxmin_grad(g, n):
    """PyTorch's cummaxmin_backward: zeros_like(self) (in self's layout) scatter-added with g."""
    if not n.self_sizes:
        return g
    zeros = np.zeros_like(dual.data(n.self), dtype=dual.data(g).dtype)
    return dual.call("scatter_add", dual.like(g, zeros), g, dim=n.dim, index=n.indices)


def _contiguous(out):
    """A contiguous result, as PyTorch allocates it whatever the input's layout: handed over as a view
    of itself, which registry.apply keeps as it is (these ops are not in its CONTIGUOUS_RESULT list)."""
    out = _c_array(out)
    return out.reshape(out.shape)


@op("cummax", "CummaxBackward0", variants=("function", "method"), saves=("self",), self=_cummaxmin_grad)
def cummax(self, dim, indices, self_sizes):
    return _contiguous(_along(self, indices, dim))


@op("cummin", "CumminBackward0", variants=("function", "method"), saves=("self",), self=_cummaxmin_grad)
def cummin(self, dim, indices, self_sizes):
    return _contiguous(_along(self, indices, dim))


def _reversed_cumsum(x, dim):
    return dual.flip(dual.cumsum(dual.flip(x, dim), dim), dim)


# (without zeros, PyTorch's reversed cumsum of grad * result over self; with a zero, the product of the other
# inputs up to each j, times grad_j, summed over j >= k: the cumprod of rows of self with a 1 on the diagonal;
# a 0-d self: grad)
@shows("(grad * result.conj()).flip(dim).cumsum(dim).flip(dim) / self.conj() if (self != 0).all() "
       "else (where(diag_embed(ones_like(self.movedim(dim, -1))) == 1, 1, self.movedim(dim, -1).unsqueeze(-2))"
       ".cumprod(-1).conj() * grad.movedim(dim, -1).unsqueeze(-2)).triu().sum(-1).movedim(-1, dim) if self.dim() else grad")
def _cumprod_grad(g, n):
    """PyTorch's cumprod_backward: reversed_cumsum(grad * result) / input without zeros; with a zero
    in a row, the sum over j >= k of grad_j times the product of the others up to j."""
    x, r = n.self, n.result
    xs = dual.data(x)
    if xs.size <= 1 or xs.shape[n.dim] == 1:    # (PyTorch's cumprod_backward gives grad itself: one number per row)
        return g
    if not (xs == 0).any():
        return _reversed_cumsum(dual.conj(r) * g, n.dim) / dual.conj(x)     # (conj: complex values; PyTorch's order)
    gs = dual.data(g)
    out = np.empty_like(xs)
    d = n.dim
    for k in range(xs.shape[d]):
        others = xs.copy()
        np.moveaxis(others, d, 0)[k] = 1
        prods = np.cumprod(others, axis=d)
        terms = np.moveaxis(gs * np.conjugate(prods), d, 0)[k:]
        np.moveaxis(out, d, 0)[k] = terms.sum(axis=0)
    return dual.like(g, out)


@op("cumprod", "CumprodBackward0", variants=("function", "method", "inplace"),
    saves=("self", "result"), cast_result=False, self=_cumprod_grad)
def cumprod(self, dim):
    if self.ndim == 0:
        return self.astype(_sum_dtype(self) or self.dtype, copy=True)
    if self.dtype in _CPU_ACC_TYPE:
        # (PyTorch's CPU kernel multiplies in its CPU acc_type, rounding each result)
        return _contiguous(np.cumprod(self.astype(_CPU_ACC_TYPE[self.dtype]), axis=dim).astype(self.dtype))
    return _contiguous(np.cumprod(self, axis=dim, dtype=_sum_dtype(self)))
