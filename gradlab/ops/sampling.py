"""Ops: embedding bags and grid sampling (rows of the op table; see registry.py), on numpy.

embedding_bag: the rows of a weight picked by indices, summed (or averaged, or maxed) per bag. The bags'
layout (which bag each index falls in, how many indices each bag counts, the rows holding each maximum)
is worked out by nn/_functional/sampling.py before the row runs, as PyTorch's kernel returns it
(offset2bag, bag_size, max_indices); the row reads them for the gradient (EmbeddingBagBackward0).

grid_sampler_2d/3d: each output position reads the input at a point of `grid` (coordinates in [-1, 1]),
bilinearly (trilinearly) interpolated, or at the nearest pixel, or bicubically; affine_grid_generator makes
such a grid from affine matrices (a matrix product: its gradient is another).
"""
import numpy as np

from . import dual
from .registry import op

# --- embedding_bag -----------------------------------------------------------------------------------


def _bag_weight_grad(g, n):
    """Each picked row's share of its bag's gradient (times its per-sample weight, over its bag's size for
    a mean, over its index's count with scale_grad_by_freq), added back into zeros; for a max, each bag's
    gradient goes to the rows holding the maxima. Padding positions give nothing."""
    g = dual.data(g)
    out = np.zeros((n.num_weights, g.shape[1]), g.dtype)
    if n.mode == 2:
        filled = n.bag_size > 0
        rows = n.max_indices[filled]
        np.add.at(out, (rows, np.broadcast_to(np.arange(g.shape[1]), rows.shape)), g[filled])
        return out
    keep = n.keep
    rows = g[n.offset2bag[keep]]
    if n.per_sample_weights is not None:
        rows = rows * dual.data(n.per_sample_weights)[keep][:, None]
    if n.mode == 1:
        rows = rows / n.bag_size[n.offset2bag[keep]][:, None].astype(rows.dtype)
    if n.scale_grad_by_freq:
        rows = rows / n.freq_counts[keep][:, None].astype(rows.dtype)
    np.add.at(out, n.indices[keep], rows)
    return out


def freq_counts(indices, num_weights):
    """The count each index's gradient is divided by with scale_grad_by_freq, as PyTorch's CPU kernel computes it:
    for the k-th distinct index (in sorted order), the count of the k-th *sorted index* (an off-by-group slip of
    its loop, counts[indices_data[i]] with i the group's number), which is the index's own count only while
    every index before it occurs once."""
    order = np.argsort(indices, kind="stable")
    ordered = indices[order]
    counts = np.bincount(indices, minlength=num_weights)
    group = np.concatenate(([0], np.cumsum(ordered[1:] != ordered[:-1]))) if ordered.size else ordered
    out = np.empty(indices.shape, np.int64)
    out[order] = counts[ordered[group]]
    return out


def _bag_sample_weights_grad(g, n):
    """d out[bag] / d per_sample_weights[i] = weight[indices[i]]: grad's row of its bag dotted with that row."""
    g = dual.data(g)
    rows = dual.data(n.weight)[n.indices] * g[n.offset2bag]
    return np.where(n.keep, rows.sum(-1), 0).astype(g.dtype)


_BAG_ROWS = "grad[offset2bag] * keep.unsqueeze(-1)"
_BAG_TEXT = ("grad.new_zeros(num_weights, grad.shape[-1]).index_put((max_indices, arange(grad.shape[-1])), "
             "grad * (bag_size > 0).unsqueeze(-1), accumulate=True) if mode == 2 else "
             "grad.new_zeros(num_weights, grad.shape[-1]).index_add(0, indices, " + _BAG_ROWS
             + " * (per_sample_weights.unsqueeze(-1) if per_sample_weights is not None else 1)"
             " / (bag_size[offset2bag].unsqueeze(-1) if mode == 1 else 1)"
             " / (freq_counts.unsqueeze(-1) if scale_grad_by_freq else 1))")


@op("embedding_bag", "EmbeddingBagBackward0", ("weight", "per_sample_weights"), promote=False,
    saves={"weight": ("per_sample_weights",), "per_sample_weights": ("weight",)},
    shows={"weight": _BAG_TEXT,
           "per_sample_weights": "(weight[indices] * grad[offset2bag]).sum(-1) * keep"},
    weight=_bag_weight_grad, per_sample_weights=_bag_sample_weights_grad)
def embedding_bag(weight, per_sample_weights, indices, offset2bag, keep, bag_size, max_indices, mode, num_weights,
                  scale_grad_by_freq, freq_counts, values):
    return values


# --- grid sampling -------------------------------------------------------------------------------------
