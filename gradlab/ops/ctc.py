"""The connectionist temporal classification loss (PyTorch's _ctc_loss, LossCTC.cpp's CPU kernels).

For each sequence b, its targets are spread out with blanks between and around them (l' = blank, t1,
blank, t2, ..., blank: 2 * target_length + 1 states). alpha[t, s] is the log-probability of all
alignments of the first t + 1 inputs that end in state s; each step may stay in s, come from s - 1,
or skip a blank from s - 2 (when l'[s - 2] != l'[s]). The loss is -log(alpha[T - 1, last] +
alpha[T - 1, last - 1]) (Graves et al., 2006, eq. 8).

The gradient (CtcLossBackward0) runs the same recursion backwards (beta) and, as PyTorch's kernel,
gives exp(log_probs) - exp(log(sum of alpha * beta over the states of each label) + nll - log_probs),
the gradient through a log_softmax that made log_probs: PyTorch's formula assumes it. The steps are
PyTorch's, element by element (max-shifted log-sum-exps, the accumulation over states in the same
order), vectorized over the states (forward, beta) or the time steps (the accumulation)."""
import numpy as np

from . import dual
from .registry import op


def _target_primes(targets, b, offset, length, blank):
    """l' for sequence b: blank, t1, blank, t2, ..., blank."""
    labels = targets[b, :length] if targets.ndim == 2 else targets[offset:offset + length]
    primes = np.full(2 * length + 1, blank, np.int64)
    primes[1::2] = labels
    return primes


def _offsets(targets, target_lengths):
    return np.concatenate([[0], np.cumsum(target_lengths)[:-1]]).astype(np.int64) if len(target_lengths) else []


def _log_sum_exp3(a, b, c):
    """log(exp(a - m) + exp(b - m) + exp(c - m)) + m with m their maximum (0 when all are -inf)."""
    m = np.maximum(np.maximum(a, b), c)
    m = np.where(m == -np.inf, m.dtype.type(0), m)
    return np.log(np.exp(a - m) + np.exp(b - m) + np.exp(c - m)) + m


def _alpha(lp, primes, length):
    """log_alpha (input_length x states) and the sequence's negative log-likelihood."""
    dtype = lp.dtype
    S = len(primes)
    la = np.full((lp.shape[0], S), -np.inf, dtype)
    if length == 0:
        return la, dtype.type(-0.0) if S == 1 else dtype.type(np.inf)
    la[0, 0] = lp[0, primes[0]]
    if S > 1:
        la[0, 1] = lp[0, primes[1]]
    skip = np.zeros(S, bool)
    skip[2:] = primes[2:] != primes[:-2]
    inf = np.full(2, -np.inf, dtype)
    for t in range(1, length):
        prev = la[t - 1]
        la2 = np.concatenate([inf[:1], prev[:-1]])
        la3 = np.where(skip, np.concatenate([inf, prev[:-2]])[:S], dtype.type(-np.inf))
        la[t] = _log_sum_exp3(prev, la2, la3) + lp[t, primes]
    if S == 1:
        return la, -la[length - 1, 0]
    l1, l2 = la[length - 1, S - 1], la[length - 1, S - 2]
    m = max(l1, l2)
    m = dtype.type(0) if m == -np.inf else m
    return la, -(np.log(np.exp(l1 - m) + np.exp(l2 - m)) + m)


def _sequences(log_probs, targets, input_lengths, target_lengths, blank):
    offsets = _offsets(targets, target_lengths)
    for b in range(log_probs.shape[1]):
        primes = _target_primes(targets, b, offsets[b] if targets.ndim == 1 else 0, target_lengths[b], blank)
        yield b, log_probs[:, b], primes, input_lengths[b]


def _ctc_forward(log_probs, targets, input_lengths, target_lengths, blank):
    T, N, _ = log_probs.shape
    S = 2 * max(target_lengths, default=0) + 1
    nll = np.empty(N, log_probs.dtype)
    log_alpha = np.full((N, T, S), -np.inf, log_probs.dtype)
    for b, lp, primes, length in _sequences(log_probs, targets, input_lengths, target_lengths, blank):
        la, nll[b] = _alpha(lp, primes, length)
        log_alpha[b, :, :len(primes)] = la
    return nll, log_alpha


def ctc_backward(grad_out, log_probs, targets, input_lengths, target_lengths, blank, zero_infinity):
    dtype = log_probs.dtype
    neg_inf = dtype.type(-np.inf)
    grad = np.zeros_like(log_probs)
    for b, lp, primes, length in _sequences(log_probs, targets, input_lengths, target_lengths, blank):
        la, nll = _alpha(lp, primes, length)
        if (zero_infinity and nll == np.inf) or length == 0:
            continue
        S = len(primes)
        lb = np.full((length, S), -np.inf, dtype)
        g = np.full((length, lp.shape[1]), -np.inf, dtype)    # log of the sum of alpha * beta per label
        last = length - 1
        lb[last, S - 1] = lp[last, blank]
        g[last, blank] = la[last, S - 1] + lb[last, S - 1]
        if S > 1:
            lb[last, S - 2] = lp[last, primes[S - 2]]
            g[last, primes[S - 2]] = la[last, S - 2] + lb[last, S - 2]
        skip = np.zeros(S, bool)
        skip[:-2] = primes[2:] != primes[:-2]
        inf = np.full(2, -np.inf, dtype)
        for t in range(length - 2, -1, -1):
            nxt = lb[t + 1]
            lb2 = np.concatenate([nxt[1:], inf[:1]])
            lb3 = np.where(skip, np.concatenate([nxt[2:], inf])[-S:], neg_inf)
            lb[t] = _log_sum_exp3(nxt, lb2, lb3) + lp[t, primes]
        # each label's log(sum of alpha * beta), its states taken from the last to the first
        for s in range(S - 1, -1, -1):
            c = primes[s]
            lab = la[:last, s] + lb[:last, s]
            cur = g[:last, c]
            m = np.maximum(cur, lab)
            added = np.log(np.exp(cur - m) + np.exp(lab - m)) + m
            g[:last, c] = np.where(cur == -np.inf, lab, added)
        lp_b = lp[:length]
        grad[:length, b] = (np.exp(lp_b) - np.exp(g + nll - lp_b)) * grad_out[b]
    return grad


def _ctc_grad(g, n):
    grad_out = dual.data(g[0]) if g[0] is not None else np.zeros(n.log_probs.shape[1], dual.data(n.log_probs).dtype)
    return dual.like(g[0], ctc_backward(grad_out, dual.data(n.log_probs), n.targets, n.input_lengths,
                                         n.target_lengths, n.blank, n.zero_infinity))


@op("_ctc_loss", "CtcLossBackward0", ("log_probs",), saves=("log_probs",), num_outputs=2, saves_outputs=(0, 1),
    variants=("function",),
    promote=False, cast_result=False,
    # (the text calls the kernel: grads[0] * (exp(log_probs) - exp(log(sum of alpha * beta) + nll - log_probs)))
    shows={"log_probs": "F._ctc_loss_backward(grads[0], log_probs, targets, input_lengths, target_lengths, blank, "
                        "zero_infinity)"},
    log_probs=_ctc_grad)
def _ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, zero_infinity):
    """(negative log-likelihood per sequence, log_alpha (batch x time x states))."""
    return _ctc_forward(log_probs, targets, input_lengths, target_lengths, blank)
