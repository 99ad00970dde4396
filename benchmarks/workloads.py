"""The benchmark workloads, each written three times: gradlab, hand-written numpy, PyTorch.

A *timed* workload is a function `make(lib, quick)` returning `(step, result)`:

* `step()` runs one iteration (forward, backward, and the update where there is one);
* `result()` returns a dict of numpy arrays describing the state after the last step. The
  harness compares gradlab's (and torch's) against numpy's: that is what `--quick` checks.

The numpy versions are the limit gradlab is measured against: the same computation with its
backward written by hand, op by op, the way a student would write it without autograd.
Everything is float32. Data and initial parameters come from one numpy generator, so the three
libraries start from identical values and must end at (nearly) identical values.
"""
import numpy as np

F32 = np.float32


def _rng():
    return np.random.default_rng(1234)


def _to_numpy(t):
    """A tensor (gradlab or torch) or array as a numpy array."""
    if t is None:
        return None
    if isinstance(t, np.ndarray):
        return t
    return np.array(t.detach().numpy(), copy=True)


def _lib_module(lib):
    if lib == "gradlab":
        import gradlab
        return gradlab
    if lib == "minimal":
        import minimal_autograd
        return minimal_autograd
    import torch
    return torch


def compare(name, got, expected, rtol=1e-4, atol=1e-5):
    """Problems (a list of strings) between a library's result and numpy's."""
    problems = []
    if set(got) != set(expected):
        return [f"{name}: keys {sorted(got)} != {sorted(expected)}"]
    for key in expected:
        a, b = np.asarray(got[key]), np.asarray(expected[key])
        if a.shape != b.shape:
            problems.append(f"{name}: {key} shape {a.shape} != numpy's {b.shape}")
        elif not np.allclose(a, b, rtol=rtol, atol=atol):
            err = np.max(np.abs(a.astype(np.float64) - b.astype(np.float64)))
            problems.append(f"{name}: {key} differs from numpy's (max abs error {err:.3g})")
    return problems


# --- tutorial: x = ones(2, 2, requires_grad=True); y = x + 2; z = y * y * 3; out = z.mean() ----------

def tutorial(lib, quick=False):
    state = {}
    if lib == "numpy":
        def step():
            x = np.ones((2, 2), F32)
            y = x + F32(2)
            a = y * y
            z = a * F32(3)
            out = z.mean()
            # backward, by hand
            dz = np.full(z.shape, F32(1) / F32(z.size), F32)
            da = dz * F32(3)
            dy = da * y + da * y           # both inputs of y * y are y
            state["x_grad"] = dy           # AccumulateGrad: x.grad is a fresh array
            state["out"] = out
    else:
        T = _lib_module(lib)

        def step():
            x = T.ones(2, 2, requires_grad=True)
            y = x + 2
            z = y * y * 3
            out = z.mean()
            out.backward()
            state["x"], state["out"] = x, out

    def result():
        if lib == "numpy":
            return {"out": np.asarray(state["out"]), "x.grad": state["x_grad"]}
        return {"out": _to_numpy(state["out"]), "x.grad": _to_numpy(state["x"].grad)}
    return step, result


# --- chain: 2,000 elementwise ops on a 10-element vector, then backward --------------------------------

CHAIN_OPS = ("mul", "add", "tanh", "sin")   # op i is CHAIN_OPS[i % 4]; mul is by a leaf w (a tensor op)


def _chain_data():
    rng = _rng()
    x0 = rng.uniform(-1, 1, 10).astype(F32)
    w0 = rng.uniform(0.9, 1.1, 10).astype(F32)
    return x0, w0


def chain(lib, quick=False):
    n_ops = 2000
    x0, w0 = _chain_data()
    state = {}
    if lib == "numpy":
        def step():
            x, w = x0.copy(), w0.copy()
            saved = []                      # what each op's backward needs
            h = x
            for i in range(n_ops):
                kind = CHAIN_OPS[i % 4]
                if kind == "mul":
                    saved.append(h)
                    h = h * w
                elif kind == "add":
                    saved.append(None)
                    h = h + F32(0.1)
                elif kind == "tanh":
                    h = np.tanh(h)
                    saved.append(h)         # tanh saves its result
                else:
                    saved.append(h)
                    h = np.sin(h)
            out = h.sum()
            g = np.ones_like(h)
            w_grad = None
            for i in range(n_ops - 1, -1, -1):
                kind = CHAIN_OPS[i % 4]
                s = saved[i]
                if kind == "mul":
                    gw = g * s
                    w_grad = gw if w_grad is None else w_grad + gw
                    g = g * w
                elif kind == "tanh":
                    g = g * (F32(1) - s * s)
                elif kind == "sin":
                    g = g * np.cos(s)
            state.update(out=out, x_grad=g, w_grad=w_grad)

        def result():
            return {"out": np.asarray(state["out"]), "x.grad": state["x_grad"], "w.grad": state["w_grad"]}
        return step, result

    T = _lib_module(lib)

    def step():
        x = T.tensor(x0, requires_grad=True)
        w = T.tensor(w0, requires_grad=True)
        h = x
        for i in range(n_ops):
            kind = CHAIN_OPS[i % 4]
            if kind == "mul":
                h = h * w
            elif kind == "add":
                h = h + 0.1
            elif kind == "tanh":
                h = h.tanh()
            else:
                h = h.sin()
        out = h.sum()
        out.backward()
        state.update(out=out, x=x, w=w)

    def result():
        return {"out": _to_numpy(state["out"]), "x.grad": _to_numpy(state["x"].grad),
                "w.grad": _to_numpy(state["w"].grad)}
    return step, result


# --- MLP training step: Linear, ReLU, Linear, log_softmax + NLL, backward, SGD ------------------------

LR = 0.01


def mlp_data(batch, sizes, seed=1234):
    """Inputs, labels and parameters (weight stored as (in, out) so the forward is x @ W + b)."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((batch, sizes[0])).astype(F32)
    y = rng.integers(0, sizes[-1], batch).astype(np.int64)
    params = []
    for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
        bound = 1 / np.sqrt(fan_in)
        params.append(rng.uniform(-bound, bound, (fan_in, fan_out)).astype(F32))
        params.append(rng.uniform(-bound, bound, fan_out).astype(F32))
    return x, y, params


def functional_api(lib):
    """gradlab.nn.functional / torch.nn.functional when gradlab has it, else None (core ops are used)."""
    try:
        import gradlab.nn.functional as GF
    except ImportError:
        return None
    if not all(hasattr(GF, f) for f in ("linear", "log_softmax", "nll_loss")):
        return None
    if lib == "gradlab":
        return GF
    if lib == "minimal":
        return _lib_module(lib).functional
    import torch.nn.functional as TF
    return TF


def mlp_loss(T, F, x, y, params, index):
    """The forward of the MLP, identical text for gradlab and torch (`T` is the library).

    With nn.functional (`F`), weights are in nn.Linear's (out, in) layout; without, (in, out)."""
    W1, b1, W2, b2 = params
    if F is not None:
        h = F.linear(x, W1, b1).relu()
        return F.nll_loss(F.log_softmax(F.linear(h, W2, b2), 1), y)
    h = (x @ W1 + b1).relu()
    logits = h @ W2 + b2
    logp = logits.log_softmax(1)
    return -(logp[index, y]).mean()


def _numpy_mlp_step(x, y, params, onehot):
    """One SGD step by hand; returns the loss. params are updated in place."""
    W1, b1, W2, b2 = params
    pre = x @ W1 + b1
    h = np.maximum(pre, F32(0))
    logits = h @ W2 + b2
    m = logits.max(axis=1, keepdims=True)
    shifted = logits - m
    e = np.exp(shifted)
    s = e.sum(axis=1, keepdims=True)
    logp = shifted - np.log(s)
    loss = -(logp * onehot).sum() / F32(x.shape[0])
    # backward
    dlogits = (e / s - onehot) / F32(x.shape[0])
    dW2 = h.T @ dlogits
    db2 = dlogits.sum(axis=0)
    dh = dlogits @ W2.T
    dpre = dh * (pre > 0)
    dW1 = x.T @ dpre
    db1 = dpre.sum(axis=0)
    for p, g in zip(params, (dW1, db1, dW2, db2)):
        p -= F32(LR) * g
    return loss


def make_mlp(batch, sizes):
    def workload(lib, quick=False):
        x0, y0, p0 = mlp_data(batch, sizes)
        state = {}
        if lib == "numpy":
            params = [p.copy() for p in p0]
            onehot = np.zeros((batch, sizes[-1]), F32)
            onehot[np.arange(batch), y0] = 1

            def step():
                state["loss"] = _numpy_mlp_step(x0, y0, params, onehot)

            def result():
                return {"loss": np.asarray(state["loss"]), **{f"p{i}": p for i, p in enumerate(params)}}
            return step, result

        T = _lib_module(lib)
        F = functional_api(lib)
        x, y = T.tensor(x0), T.tensor(y0)
        index = T.arange(batch)
        params = [T.tensor(layout(p, F), requires_grad=True) for p in p0]

        def step():
            loss = mlp_loss(T, F, x, y, params, index)
            loss.backward()
            with T.no_grad():
                for p in params:
                    p -= LR * p.grad
                    p.grad = None
            state["loss"] = loss

        def result():
            return {"loss": _to_numpy(state["loss"]),
                    **{f"p{i}": layout(_to_numpy(p), F) for i, p in enumerate(params)}}
        return step, result
    return workload


def layout(p, F):
    """A weight in the layout the forward uses: nn.Linear's (out, in) with nn.functional (transposing
    is its own inverse, so this also turns a (out, in) weight back into numpy's (in, out))."""
    return np.ascontiguousarray(p.T) if F is not None and p.ndim == 2 else p


mlp_small = make_mlp(8, (16, 16, 4))
mlp = make_mlp(64, (784, 256, 10))


# --- randn(1_000_000) (issue 3's speed check) ---------------------------------------------------------

def randn(lib, quick=False):
    n = 1_000_000
    state = {}
    if lib == "numpy":
        rng = np.random.default_rng(0)

        def step():
            state["x"] = rng.standard_normal(n, dtype=F32)
    else:
        T = _lib_module(lib)
        T.manual_seed(0)

        def step():
            state["x"] = T.randn(n)

    def result():
        x = _to_numpy(state["x"])
        # different generators: compare the distribution, not the values
        return {"shape": np.array(x.shape), "dtype_is_float32": np.array(x.dtype == F32),
                "mean": np.round(np.array([x.mean()]), 2), "std": np.round(np.array([x.std()]), 2)}
    return step, result


TIMED = {
    "tutorial": tutorial,
    "chain": chain,
    "mlp_small": mlp_small,
    "mlp": mlp,
    "randn": randn,
}
