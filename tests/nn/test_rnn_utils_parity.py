"""torch.nn.utils.rnn (padded and packed batches of sequences) and nn.RNN, nn.LSTM, nn.GRU on packed input,
against live PyTorch.

Each case is a function of the library (`lib` is torch or gradlab) run under both on the same generated
batch: sequence lengths, batch_first, enforce_sorted (lengths in a random order when False), dtypes, padding
value and side, modules of 1-2 layers, bidirectional or not, with or without an initial state. The outcomes
must agree: values (the padding and packing functions bit for bit; the recurrent modules within 1e-12 for
float64 and 1e-6 for float32, since their matrix products sum in MKL's order: measured at most 1.3e-15 and
4.8e-7), gradients, grad_fn names, whole graphs node for node, PackedSequence's printed text, warnings, or the
exception's type and message."""
import warnings

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def _normal(value, lib):
    """A library's result as plain Python: tensors as (dtype, shape, float64 values, grad_fn name)."""
    if isinstance(value, lib.nn.utils.rnn.PackedSequence):
        return ("PackedSequence", [_normal(v, lib) for v in value])
    if isinstance(value, lib.Tensor):
        grad_fn = type(value.grad_fn).__name__ if value.grad_fn is not None else None
        return ("Tensor", str(value.dtype).split(".")[-1], tuple(value.shape),
                value.detach().numpy().astype(np.float64), grad_fn, value.requires_grad)
    if isinstance(value, (tuple, list)):
        return type(value).__name__, [_normal(v, lib) for v in value]
    if isinstance(value, dict):
        return {k: _normal(v, lib) for k, v in value.items()}
    return value


def outcome(lib, case, seed):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = ("ok", _normal(case(lib, np.random.default_rng(seed)), lib))
        except Exception as e:       # (compared with torch's: type and message)
            result = ("error", type(e).__name__, str(e))
    return result, sorted({(w.category.__name__, str(w.message)) for w in caught})


def _close(mine, theirs, where, exact):
    if isinstance(theirs, tuple) and theirs and theirs[0] == "Tensor":
        assert isinstance(mine, tuple) and mine[0] == "Tensor", (where, mine)
        assert mine[1:3] == theirs[1:3] and mine[4:] == theirs[4:], (where, mine[1:3], theirs[1:3], mine[4:],
                                                                   theirs[4:])
        a, b = mine[3], theirs[3]
        if exact:
            assert np.array_equal(a, b, equal_nan=True), (where, a, b)
        else:
            tol = 1e-6 if theirs[1] in ("float32", "float16") else 1e-12
            assert np.allclose(a, b, rtol=tol, atol=tol, equal_nan=True), (where, np.abs(a - b).max())
        return
    if isinstance(theirs, (tuple, list)):
        assert isinstance(mine, (tuple, list)) and len(mine) == len(theirs), (where, mine, theirs)
        for i, (m, t) in enumerate(zip(mine, theirs)):
            _close(m, t, f"{where}[{i}]", exact)
        return
    if isinstance(theirs, dict):
        assert isinstance(mine, dict) and list(mine) == list(theirs), (where, mine, theirs)
        for k in theirs:
            _close(mine[k], theirs[k], f"{where}.{k}", exact)
        return
    assert mine == theirs, (where, mine, theirs)


def compare(case, seed, exact=False):
    mine, theirs = outcome(gradlab, case, seed), outcome(torch, case, seed)
    _close(mine, theirs, f"seed {seed}", exact)
    return theirs


def _lengths(rng, enforce_sorted, most=5):
    lengths = [int(v) for v in rng.integers(1, most + 1, int(rng.integers(1, 5)))]
    return sorted(lengths, reverse=True) if enforce_sorted else lengths


def _sequences(lib, rng, lengths, trailing, dtype, grad):
    out = []
    for n in lengths:
        values = rng.standard_normal((n,) + trailing)
        if dtype in ("int64", "bool"):
            values = values > 0 if dtype == "bool" else np.round(values * 3)
        out.append(lib.tensor(values.astype(dtype), requires_grad=grad))
    return out


def _weighted_backward(outputs, leaves):
    """Gradients of a weighted sum of the outputs (one backward), or None when nothing requires grad."""
    total = None
    for o in outputs:
        if not o.requires_grad:
            continue
        weights = type(o)(np.cos(np.arange(o.numel()) + 0.5).reshape(tuple(o.shape)).astype(
            str(o.dtype).split(".")[-1]))
        term = (o * weights).sum()
        total = term if total is None else total + term
    if total is None:
        return None
    total.backward()
    return [leaf.grad for leaf in leaves]


# --- pad_sequence, pack_padded_sequence, pad_packed_sequence, the round trips: bit for bit --------------------

@pytest.mark.parametrize("seed", range(60))
def test_pad_pack_unpack(seed):
    def case(lib, rng):
        R = lib.nn.utils.rnn
        enforce_sorted = bool(rng.random() < 0.5)
        lengths = _lengths(rng, enforce_sorted)
        trailing = [(), (2,), (2, 3)][int(rng.integers(3))]
        dtype = str(rng.choice(["float32", "float64", "float64", "int64", "bool"]))
        grad = dtype.startswith("float")
        batch_first = bool(rng.random() < 0.5)
        seqs = _sequences(lib, rng, lengths, trailing, dtype, grad)
        padding_value = [0.0, -1.0, 2.5, 7][int(rng.integers(4))]
        side = str(rng.choice(["right", "left"]))
        padded = R.pad_sequence(seqs, batch_first=batch_first, padding_value=padding_value, padding_side=side)
        right = R.pad_sequence(seqs, batch_first, padding_value)       # (packing reads the steps from the left)
        given = lengths if rng.random() < 0.5 else lib.tensor(lengths)
        packed = R.pack_padded_sequence(right, given, batch_first=batch_first, enforce_sorted=enforce_sorted)
        total_length = None if rng.random() < 0.5 else max(lengths) + int(rng.integers(0, 3))
        back, back_lengths = R.pad_packed_sequence(packed, batch_first=not batch_first if rng.random() < 0.3
                                                   else batch_first, padding_value=-padding_value,
                                                   total_length=total_length)
        listed = R.unpack_sequence(packed)
        unpadded = R.unpad_sequence(right.detach().clone(), lib.tensor(lengths), batch_first=batch_first)
        grads = _weighted_backward([padded, packed.data, back] + listed, seqs) if grad else None
        return {"padded": padded, "packed": packed, "text": repr(packed), "back": (back, back_lengths),
                "listed": listed, "unpadded": unpadded, "grads": grads}
    compare(case, seed, exact=True)


@pytest.mark.parametrize("seed", range(10))
def test_pack_sequence_and_its_text(seed):
    """pack_sequence of a list, its printed text, its methods (to, float, double, ...), indexing."""
    def case(lib, rng):
        R = lib.nn.utils.rnn
        enforce_sorted = bool(rng.random() < 0.5)
        lengths = _lengths(rng, enforce_sorted)
        seqs = _sequences(lib, rng, lengths, (2,) if rng.random() < 0.5 else (), "float64", True)
        packed = R.pack_sequence(seqs, enforce_sorted=enforce_sorted)
        as32 = packed.float()
        return {"text": repr(packed), "str": str(packed), "float": repr(as32), "to_same": packed.to(lib.float64) is packed,
                "double": repr(as32.double()), "long": repr(packed.long()), "fields": list(packed._fields),
                "first": packed[0], "sizes": packed.batch_sizes, "len": len(packed), "is_cuda": packed.is_cuda,
                "cpu_same": packed.cpu() is packed, "inverse": R.invert_permutation(packed.sorted_indices),
                "rebuilt": repr(R.PackedSequence(packed.data, packed.batch_sizes, packed.sorted_indices))}
    compare(case, seed, exact=True)


def test_pack_gradient_of_gradient():
    """create_graph through PackPaddedSequenceBackward0: PyTorch's graph of the gradient (CopySlices, and a
    TransposeBackward0 for batch-first input), and its values."""
    def case(lib, rng):
        out = []
        for batch_first in (False, True):
            x = lib.tensor(rng.standard_normal((3, 2, 2)), requires_grad=True)
            packed = lib.nn.utils.rnn.pack_padded_sequence(x, [3, 2] if not batch_first else [2, 2, 1],
                                                           batch_first=batch_first)
            g, = lib.autograd.grad((packed.data ** 3).sum(), x, create_graph=True)
            names = [type(g.grad_fn).__name__] + [type(f).__name__ for f, _ in g.grad_fn.next_functions]
            g2, = lib.autograd.grad(g.sum(), x)
            out += [g, names, g2]
        return out
    compare(case, 0, exact=True)


# --- nn.RNN, nn.LSTM, nn.GRU on a PackedSequence ---------------------------------------------------------------

def _module(lib, rng, kind, dtype, batch_first):
    options = dict(num_layers=int(rng.integers(1, 3)), bidirectional=bool(rng.random() < 0.5),
                   batch_first=batch_first, bias=bool(rng.random() < 0.8))
    if kind == "LSTM" and rng.random() < 0.25:
        options["proj_size"] = 2
    if kind == "RNN" and rng.random() < 0.5:
        options["nonlinearity"] = "relu"
    if options["num_layers"] == 2 and rng.random() < 0.3:
        options["dropout"] = 0.5        # (between the layers, in training: the same draws from the seed)
    lib.manual_seed(0)
    return getattr(lib.nn, kind)(3, 4, **options).to(getattr(lib, dtype)), options


@pytest.mark.parametrize("seed", range(48))
def test_modules_on_packed_input(seed):
    kind = ["RNN", "LSTM", "GRU"][seed % 3]

    def case(lib, rng):
        R = lib.nn.utils.rnn
        dtype = "float64" if rng.random() < 0.6 else "float32"
        batch_first = bool(rng.random() < 0.5)
        enforce_sorted = bool(rng.random() < 0.5)
        lengths = _lengths(rng, enforce_sorted)
        if kind == "LSTM" and len(set(lengths)) == 1:
            # (a float32 LSTM whose sequences all have one length runs through oneDNN in PyTorch, as an unpacked
            # batch: grad_fn ViewBackward0 of MkldnnRnnLayerBackward0; gradlab records the native path's graph,
            # as for unpacked input, see nn/modules/rnn.py)
            dtype = "float64"
        m, options = _module(lib, rng, kind, dtype, batch_first)
        seqs = _sequences(lib, rng, lengths, (3,), dtype, True)
        if rng.random() < 0.5:
            packed = R.pack_sequence(seqs, enforce_sorted=enforce_sorted)
        else:
            padded = R.pad_sequence(seqs, batch_first=batch_first)
            packed = R.pack_padded_sequence(padded, lib.tensor(lengths), batch_first=batch_first,
                                            enforce_sorted=enforce_sorted)
        leaves = list(seqs) + list(m.parameters())
        hx = None
        if rng.random() < 0.5:      # an initial state, in the caller's order of the sequences
            layers = options["num_layers"] * (2 if options["bidirectional"] else 1)
            size = options.get("proj_size", 4)
            h0 = lib.tensor(rng.standard_normal((layers, len(lengths), size)).astype(dtype), requires_grad=True)
            c0 = lib.tensor(rng.standard_normal((layers, len(lengths), 4)).astype(dtype), requires_grad=True)
            hx = (h0, c0) if kind == "LSTM" else h0
            leaves += [h0, c0] if kind == "LSTM" else [h0]
        output, hidden = m(packed, hx)
        padded_out, out_lengths = R.pad_packed_sequence(output, batch_first=batch_first)
        states = list(hidden) if kind == "LSTM" else [hidden]
        grads = _weighted_backward([padded_out] + states, leaves)
        return {"output": output, "padded": (padded_out, out_lengths), "hidden": hidden, "grads": grads}
    compare(case, seed)


@pytest.mark.parametrize("kind", ["RNN", "LSTM", "GRU"])
def test_final_state_is_each_sequences_last_step(kind):
    """h_n of a packed batch is each sequence's state after its own last step: the same as running the
    module on that sequence alone (checked under both libraries, and compared)."""
    def case(lib, rng):
        R = lib.nn.utils.rnn
        m, _ = _module(lib, np.random.default_rng(3), kind, "float64", False)
        m.eval()            # (no dropout between layers: the runs must see the same weights)
        lengths = [2, 5, 3]
        seqs = _sequences(lib, rng, lengths, (3,), "float64", False)
        _, hidden = m(R.pack_sequence(seqs, enforce_sorted=False))
        h = hidden[0] if kind == "LSTM" else hidden
        alone = [m(s.unsqueeze(1))[1] for s in seqs]
        alone = [a[0] if kind == "LSTM" else a for a in alone]
        for b, a in enumerate(alone):
            assert np.allclose(h[:, b].detach().numpy(), a[:, 0].detach().numpy(), atol=1e-12)
        return hidden
    compare(case, 0)


# --- bad input: PyTorch's exception type and message -------------------------------------------------------

def _x(lib, *shape, dtype="float32"):
    return lib.arange(int(np.prod(shape)), dtype=getattr(lib, dtype)).reshape(shape) / 10


ERROR_CASES = [
    lambda lib: lib.nn.utils.rnn.pack_padded_sequence(_x(lib, 3, 2, 2), [3, 0]),
    lambda lib: lib.nn.utils.rnn.pack_padded_sequence(_x(lib, 3, 2, 2), [2, 3]),
    lambda lib: lib.nn.utils.rnn.pack_padded_sequence(_x(lib, 3, 2, 2), [2, 3, 1]),
    lambda lib: lib.nn.utils.rnn.pack_padded_sequence(_x(lib, 3, 2, 2), [3, -1]),
    lambda lib: lib.nn.utils.rnn.pack_padded_sequence(_x(lib, 3, 2, 2), [0, 0], enforce_sorted=False),
    lambda lib: lib.nn.utils.rnn.pack_padded_sequence(_x(lib, 3, 2, 2), lib.tensor([[3, 2]])),
    lambda lib: lib.nn.utils.rnn.pack_padded_sequence(_x(lib, 3, 2), lib.tensor(3)),
    lambda lib: lib.nn.utils.rnn.pack_padded_sequence(_x(lib, 3, 2, 2), lib.tensor([3.7, 2.2])),
    lambda lib: lib.nn.utils.rnn.pack_padded_sequence(_x(lib, 3, 2, 2), [3.5, 2]),
    lambda lib: lib.nn.utils.rnn.pack_padded_sequence(_x(lib, 3, 2, 2), []),
    lambda lib: lib.nn.utils.rnn.pack_padded_sequence(lib.zeros(0, 2, 2), [0, 0]),
    lambda lib: lib.nn.utils.rnn.pack_padded_sequence(_x(lib, 3), [3]),
    lambda lib: lib.nn.utils.rnn.pack_padded_sequence(_x(lib, 3), [3], batch_first=True),
    lambda lib: lib.nn.utils.rnn.pack_padded_sequence(_x(lib, 3, 2), [3, "a"]),
    lambda lib: lib.nn.utils.rnn.pack_padded_sequence(_x(lib, 3, 2), None),
    lambda lib: lib.nn.utils.rnn.pack_padded_sequence(_x(lib, 3, 2, 2), [3, 2, 2], batch_first=True),
    lambda lib: lib.nn.utils.rnn.pad_packed_sequence(lib.nn.utils.rnn.pack_padded_sequence(_x(lib, 3, 2), [3, 2]),
                                                     total_length=2),
    lambda lib: lib.nn.utils.rnn.pad_sequence([]),
    lambda lib: lib.nn.utils.rnn.pad_sequence(3),
    lambda lib: lib.nn.utils.rnn.pad_sequence([lib.zeros(2, 3), lib.zeros(3, 2)]),
    lambda lib: lib.nn.utils.rnn.pad_sequence([lib.zeros(2, 3), lib.zeros(3, 3)], padding_side="middle"),
    lambda lib: lib.nn.utils.rnn.pad_sequence([lib.tensor(1.0), lib.zeros(3)]),
    lambda lib: lib.nn.utils.rnn.pad_sequence([lib.zeros(2), lib.tensor(1.0)]),
    lambda lib: lib.nn.utils.rnn.pad_sequence([lib.zeros(2), 3]),
    lambda lib: lib.nn.utils.rnn.pad_sequence([lib.zeros(2)], padding_value="a"),
    lambda lib: lib.nn.utils.rnn.pad_sequence([lib.zeros(2)], padding_value=None),
    lambda lib: lib.nn.utils.rnn.pad_sequence([lib.zeros(2)], batch_first=1),
    lambda lib: lib.nn.utils.rnn.pack_sequence([lib.zeros(2), lib.zeros(3)]),
    lambda lib: lib.nn.utils.rnn.pack_sequence([]),
    lambda lib: lib.nn.utils.rnn.unpack_sequence(5),
    lambda lib: lib.nn.utils.rnn.unpad_sequence(lib.ones(3, 2, requires_grad=True), lib.tensor([2, 3])),
    lambda lib: lib.nn.utils.rnn.unpad_sequence(lib.ones(3, 2), lib.tensor([2, 3, 1])),
    lambda lib: lib.nn.utils.rnn.invert_permutation(lib.tensor([0, 3])),
    lambda lib: lib.nn.utils.rnn.invert_permutation([0, 1]),
    lambda lib: lib.nn.utils.rnn.PackedSequence(lib.zeros(3, 2)),
    lambda lib: lib.nn.utils.rnn.PackedSequence((lib.zeros(3, 2),)),
    lambda lib: lib.nn.utils.rnn.pack_sequence([lib.zeros(2), lib.zeros(1)]).cuda(),
    # the modules on a packed batch: the dtype, the feature size, the initial state
    lambda lib: lib.nn.RNN(2, 3)(lib.nn.utils.rnn.pack_padded_sequence(_x(lib, 3, 2, 2, dtype="float64"), [3, 2])),
    lambda lib: lib.nn.GRU(3, 3)(lib.nn.utils.rnn.pack_padded_sequence(_x(lib, 3, 2, 2), [3, 2])),
    lambda lib: lib.nn.GRU(2, 3)(lib.nn.utils.rnn.pack_padded_sequence(_x(lib, 3, 2, 2), [3, 2]), lib.zeros(1, 3, 3)),
    lambda lib: lib.nn.RNN(2, 3)(lib.nn.utils.rnn.pack_padded_sequence(_x(lib, 3, 2, 2), [3, 2]), lib.zeros(2, 3)),
    lambda lib: lib.nn.LSTM(2, 3)(lib.nn.utils.rnn.pack_padded_sequence(_x(lib, 3, 2, 2, dtype="float64"), [3, 2])),
    lambda lib: lib.nn.LSTM(3, 3)(lib.nn.utils.rnn.pack_padded_sequence(_x(lib, 3, 2, 2), [3, 2])),
    lambda lib: lib.nn.LSTM(2, 3)(lib.nn.utils.rnn.pack_padded_sequence(_x(lib, 3, 2, 2), [3, 2]),
                                  (lib.zeros(1, 3, 3), lib.zeros(1, 3, 3))),
    lambda lib: lib.nn.LSTM(2, 3)(lib.nn.utils.rnn.pack_sequence([_x(lib, 3, 2), _x(lib, 2, 2)]), lib.zeros(1, 2, 3)),
    lambda lib: lib.nn.GRU(2, 3)(lib.nn.utils.rnn.pack_sequence([_x(lib, 3), _x(lib, 2)])),
    lambda lib: lib.nn.LSTM(2, 3)(lib.nn.utils.rnn.pack_sequence([_x(lib, 3), _x(lib, 2)])),
    lambda lib: lib.nn.RNN(2, 3)(lib.nn.utils.rnn.pack_sequence([_x(lib, 3, 2), _x(lib, 2, 2)]), lib.zeros(2, 3)),
    lambda lib: lib.nn.GRUCell(2, 3)(lib.nn.utils.rnn.pack_sequence([_x(lib, 3, 2)])),
    # the C functions' argument parser, and what it accepts
    lambda lib: lib.nn.utils.rnn.pad_packed_sequence(_x(lib, 3, 2)),
    lambda lib: lib.nn.utils.rnn.pad_packed_sequence(lib.nn.utils.rnn.pack_sequence([_x(lib, 3, 2)]), total_length=4.0),
    lambda lib: lib.nn.utils.rnn.pad_packed_sequence(lib.nn.utils.rnn.pack_sequence([_x(lib, 3, 2)]), total_length=-1),
    lambda lib: lib.nn.utils.rnn.pad_packed_sequence(lib.nn.utils.rnn.pack_sequence([_x(lib, 3, 2)]), total_length=True),
    lambda lib: lib.nn.utils.rnn.pad_packed_sequence(lib.nn.utils.rnn.pack_sequence([_x(lib, 3, 2), _x(lib, 1, 2)]),
                                                     total_length=lib.tensor(4)),
    lambda lib: lib.nn.utils.rnn.pad_packed_sequence(lib.nn.utils.rnn.pack_sequence([_x(lib, 3, 2)]), padding_value="a"),
    lambda lib: lib.nn.utils.rnn.pad_packed_sequence(lib.nn.utils.rnn.pack_sequence([_x(lib, 3, 2)]), padding_value=None),
    lambda lib: lib.nn.utils.rnn.pad_packed_sequence(lib.nn.utils.rnn.pack_sequence([_x(lib, 3, 2)]), padding_value=1j),
    lambda lib: lib.nn.utils.rnn.pad_packed_sequence(lib.nn.utils.rnn.pack_sequence([_x(lib, 3, 2), _x(lib, 1, 2)]),
                                                     padding_value=lib.tensor(2.5)),
    lambda lib: lib.nn.utils.rnn.pad_packed_sequence(lib.nn.utils.rnn.pack_sequence([_x(lib, 3, 2)]), batch_first=1),
    lambda lib: lib.nn.utils.rnn.pad_packed_sequence(lib.nn.utils.rnn.PackedSequence(_x(lib, 3, 2), lib.tensor([2., 1.]))),
    lambda lib: lib.nn.utils.rnn.pack_padded_sequence(_x(lib, 3, 2), [3, 3], batch_first=1),
    lambda lib: lib.nn.utils.rnn.pack_padded_sequence(_x(lib, 3, 2), [3, 3], batch_first=None),
    lambda lib: lib.nn.utils.rnn.pack_padded_sequence([[1.0]], [1]),
    lambda lib: lib.nn.utils.rnn.pack_padded_sequence(_x(lib, 2, 2), [True, True]),
    lambda lib: lib.nn.utils.rnn.pack_padded_sequence(_x(lib, 2, 2), np.array([2, 1])),
    lambda lib: lib.nn.utils.rnn.pack_padded_sequence(_x(lib, 3, 2, 2), [4, 3]),
    lambda lib: lib.nn.utils.rnn.pack_padded_sequence(_x(lib, 3, 2), lib.tensor([2.9, 1.2]), enforce_sorted=False),
    lambda lib: lib.nn.utils.rnn.pad_sequence([lib.zeros(2)], padding_value=lib.tensor([2.5])),
    lambda lib: lib.nn.utils.rnn.pad_sequence([lib.zeros(2), lib.zeros(1)], padding_value=lib.tensor(2.5)),
    lambda lib: lib.nn.utils.rnn.pad_sequence([lib.zeros(2), lib.zeros(1)], padding_value=lib.tensor(2)),
    lambda lib: lib.nn.utils.rnn.pad_sequence([lib.zeros(2)], padding_value=lib.tensor(2.5, requires_grad=True)),
    lambda lib: lib.nn.utils.rnn.pad_sequence([lib.zeros(2)], padding_value=1 + 2j),
    lambda lib: lib.nn.utils.rnn.pad_sequence([lib.zeros(2), lib.zeros(1)], padding_value=np.float32(2.5)),
    lambda lib: lib.nn.utils.rnn.pad_sequence([lib.tensor([1, 2]), lib.tensor([0])], padding_value=True),
    lambda lib: lib.nn.utils.rnn.pad_sequence([lib.tensor([1, 2]), lib.tensor([0.5])]),
    lambda lib: lib.nn.utils.rnn.pad_sequence([lib.tensor([1, 2], dtype=lib.uint8), lib.tensor([0], dtype=lib.uint8)],
                                              padding_value=-1),
    lambda lib: lib.nn.utils.rnn.pad_sequence([lib.zeros(2)], padding_side=None),
    lambda lib: lib.nn.utils.rnn.pad_sequence(t for t in [_x(lib, 2), _x(lib, 3)]),
    lambda lib: lib.nn.utils.rnn.pad_sequence(_x(lib, 2, 3)),
    lambda lib: lib.nn.utils.rnn.PackedSequence(_x(lib, 3, 2), lib.tensor([2, 1]), lib.tensor([1, 0])),
    lambda lib: lib.nn.utils.rnn.PackedSequence((_x(lib, 3, 2), lib.tensor([2, 1]))),
    lambda lib: lib.nn.utils.rnn.pack_sequence([_x(lib, 3, 2)]).to("xyz"),
    lambda lib: repr(lib.nn.utils.rnn.pack_sequence([_x(lib, 3, 2), _x(lib, 2, 2)]).half()),
    lambda lib: repr(lib.nn.utils.rnn.pack_sequence([_x(lib, 3, 2), _x(lib, 2, 2)]).byte()),
    lambda lib: repr(lib.nn.utils.rnn.pack_sequence([_x(lib, 3, 2), _x(lib, 2, 2)]).to(dtype=lib.float64)),
    lambda lib: repr(lib.nn.utils.rnn.pack_sequence([_x(lib, 3, 2), _x(lib, 2, 2)])._replace(sorted_indices=None)),
    # the meta device: lengths must be on the CPU; padding keeps the sequences' device; the modules' zero states
    lambda lib: lib.nn.utils.rnn.pack_padded_sequence(_x(lib, 3, 2), lib.tensor([3, 2], device="meta")),
    lambda lib: repr(lib.nn.utils.rnn.pack_padded_sequence(lib.zeros(3, 2, device="meta"), lib.tensor([3, 2]))),
    lambda lib: repr(lib.nn.utils.rnn.pad_sequence([lib.zeros(3, 2, device="meta"), lib.zeros(1, 2, device="meta")])),
    lambda lib: repr(lib.nn.utils.rnn.pad_packed_sequence(
        lib.nn.utils.rnn.pack_padded_sequence(lib.zeros(3, 2, device="meta"), lib.tensor([3, 2])))),
    *[(lambda kind: lambda lib: repr(getattr(lib.nn, kind)(1, 2, device="meta")(lib.nn.utils.rnn.pack_padded_sequence(
        lib.zeros(3, 2, 1, device="meta"), lib.tensor([2, 3]), enforce_sorted=False))))(kind)
      for kind in ("RNN", "LSTM", "GRU")],
    *[(lambda kind: lambda lib: repr(getattr(lib.nn, kind)(1, 2, device="meta")(lib.zeros(3, 2, 1, device="meta"))))(kind)
      for kind in ("RNN", "LSTM", "GRU")],
    lambda lib: repr(__import__("copy").deepcopy(lib.nn.utils.rnn.pack_sequence([_x(lib, 3, 2), _x(lib, 2, 2)],
                                                                                enforce_sorted=False))),
]


@pytest.mark.parametrize("index", range(len(ERROR_CASES)))
def test_errors(index):
    def case(lib, rng):
        lib.manual_seed(0)
        return ERROR_CASES[index](lib)
    compare(case, 0, exact=True)


def test_lstm_projections_on_packed_input_warn_as_pytorch():
    def case(lib, rng):
        R = lib.nn.utils.rnn
        lib.manual_seed(0)
        m = lib.nn.LSTM(2, 3, proj_size=1)
        return m(R.pack_sequence([_x(lib, 3, 2), _x(lib, 1, 2)]))
    compare(case, 0)


# --- the graphs: every node and edge PyTorch records --------------------------------------------------------

def _graph(t):
    """The graph below t as plain data: each node's class name and where its next_functions point
    (numbered in breadth-first order), so two libraries' graphs compare node for node."""
    seen, order, out = {}, [t.grad_fn], []
    for f in order:
        edges = []
        for g, k in f.next_functions:
            if g is None:
                edges.append(None)
                continue
            if id(g) not in seen:
                seen[id(g)] = len(seen) + 1
                order.append(g)
            edges.append((seen[id(g)], k))
        out.append((type(f).__name__, edges))
    return out


GRAPH_CASES = {
    "pad_left": lambda lib, R, seqs: [R.pad_sequence(seqs, padding_side="left")],
    "pad_batch_first": lambda lib, R, seqs: [R.pad_sequence(seqs, batch_first=True)],
    "pack": lambda lib, R, seqs: [R.pack_sequence(seqs, enforce_sorted=False).data],
    "pad_packed": lambda lib, R, seqs: [R.pad_packed_sequence(R.pack_sequence(seqs, enforce_sorted=False),
                                                              batch_first=True)[0]],
    "unpack": lambda lib, R, seqs: R.unpack_sequence(R.pack_sequence(seqs, enforce_sorted=False)),
    "unpad": lambda lib, R, seqs: R.unpad_sequence(R.pad_sequence(seqs), lib.tensor([2, 4, 1])),
    **{kind: (lambda kind: lambda lib, R, seqs: _module_graph(lib, R, seqs, kind))(kind)
       for kind in ("RNN", "LSTM", "GRU")},
}


def _module_graph(lib, R, seqs, kind):
    lib.manual_seed(0)
    m = getattr(lib.nn, kind)(2, 3, bidirectional=True, num_layers=2).double()
    output, hidden = m(R.pack_sequence(seqs, enforce_sorted=False))
    return [output.data] + (list(hidden) if kind == "LSTM" else [hidden])


@pytest.mark.parametrize("name", sorted(GRAPH_CASES))
def test_graph_is_pytorchs(name):
    def graphs(lib):
        rng = np.random.default_rng(0)
        seqs = [lib.tensor(rng.standard_normal((n, 2)), requires_grad=True) for n in (2, 4, 1)]
        return [_graph(t) for t in GRAPH_CASES[name](lib, lib.nn.utils.rnn, seqs)]
    assert graphs(gradlab) == graphs(torch)


def test_unpad_sequence_transposes_its_input_in_place():
    """PyTorch's unpad_sequence (batch_first=False) calls transpose_ on the padded batch it is given."""
    def case(lib, rng):
        padded = lib.arange(6.0).reshape(3, 2)
        pieces = lib.nn.utils.rnn.unpad_sequence(padded, lib.tensor([2, 3]))
        return [pieces, padded, padded.stride()]
    compare(case, 0, exact=True)


def test_pack_node_saves_what_pytorchs_saves():
    """PackPaddedSequenceBackward0's saved values (batch_first, the input's sizes, result1: the batch sizes),
    and the error of a second backward through it."""
    def case(lib, rng):
        x = lib.tensor(rng.standard_normal((3, 2, 2)), requires_grad=True)
        node = lib.nn.utils.rnn.pack_padded_sequence(x, [3, 2]).data.grad_fn
        saved = [node._saved_batch_first, node._saved_input_sym_sizes, node._saved_result1]
        y = lib.nn.utils.rnn.pack_padded_sequence(x, [3, 2]).data.sum()
        y.backward()
        try:
            y.backward()
        except RuntimeError as e:
            return saved + [str(e)]
        return saved
    compare(case, 0, exact=True)
