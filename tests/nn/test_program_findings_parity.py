"""What the beginner programs in tests/programs/cases/ found (this round's: autoencoder, GAN, fine-tuning, skip-gram,
EmbeddingBag, hand-written attention, ...), as generated cases against live torch: the same call on both libraries,
compared by exception type and message, or by values."""
import random

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

import gradlab  # noqa: E402


def _outcome(fn):
    """What a call did: ('ok', value as numpy or plain Python) or ('error', type name, message)."""
    try:
        value = fn()
    except Exception as e:      # noqa: BLE001  (the exception is the result compared)
        return ("error", type(e).__name__, str(e))
    if hasattr(value, "detach"):
        value = value.detach().numpy()
    return ("ok", value)


def _same(expected, got):
    assert expected[0] == got[0], (expected, got)
    if expected[0] == "error":
        assert got[1:] == expected[1:]
    else:
        np.testing.assert_array_equal(got[1], expected[1])


def _offsets_cases(count=40):
    r = random.Random(3)
    cases = []
    for i in range(count):
        n = r.randint(0, 6)
        bags = r.randint(1, 4)
        offsets = sorted(r.randint(0, n + 1) for _ in range(bags))
        if r.random() < 0.3:
            offsets[0] = r.randint(0, 3)
        cases.append((i, n, offsets, r.choice(["int32", "int64"]), r.choice(["sum", "mean", "max"]),
                      r.random() < 0.3))
    return cases


@pytest.mark.parametrize("case", _offsets_cases(), ids=lambda c: f"{c[0]}-n{c[1]}-{c[2]}-{c[3]}-{c[4]}-last{c[5]}")
def test_embedding_bag_offsets_checks(case):
    """A first offset that is not 0 prints it as PyTorch's 0-d tensor ('[ torch.LongTensor{} ]'); a last offset past
    the input has PyTorch's wording (found by text_embeddingbag_classifier)."""
    _, n, offsets, dtype, mode, last = case
    weight = np.random.default_rng(case[0]).standard_normal((8, 3)).astype(np.float32)

    def call(lib):
        return lib.nn.functional.embedding_bag(
            lib.arange(n, dtype=getattr(lib, dtype)) % 8, lib.tensor(weight), lib.tensor(offsets,
                                                                                         dtype=getattr(lib, dtype)),
            mode=mode, include_last_offset=last)
    _same(_outcome(lambda: call(torch)), _outcome(lambda: call(gradlab)))


_LAYERS = ["ReLU", "Tanh", "Sigmoid", "Identity", "GELU", "Softsign"]


def _container_program(seed, kind):
    """A random sequence of container edits: (operation, argument) pairs."""
    r = random.Random(seed)
    steps = []
    for _ in range(r.randint(3, 8)):
        op = r.choice(["setitem", "delitem", "delslice", "append", "insert", "extend", "pop", "add", "iadd",
                       "mul", "rmul", "imul", "getitem", "getslice", "dir"])
        if kind == "ModuleList" and op in ("mul", "rmul", "imul"):
            op = "iadd"
        steps.append((op, r.randint(-5, 5), r.choice(_LAYERS), r.choice([-1, 0, 1, 2, 3, 2.0])))
    return steps


def _run_containers(lib, kind, named, steps):
    from collections import OrderedDict
    nn = lib.nn
    first = [nn.ReLU(), nn.Tanh(), nn.Sigmoid()]
    if kind == "Sequential":
        box = nn.Sequential(OrderedDict(zip(["conv", "act", "fc"], first))) if named else nn.Sequential(*first)
    else:
        box = nn.ModuleList(first)
    log = []
    for op, idx, layer, factor in steps:
        new = getattr(nn, layer)()
        try:
            if op == "setitem":
                box[idx] = new
            elif op == "delitem":
                del box[idx]
            elif op == "delslice":
                del box[idx:]
            elif op == "append":
                box.append(new)
            elif op == "insert":
                box.insert(idx, new)
            elif op == "extend":
                box.extend([new, getattr(nn, layer)()])
            elif op == "pop":
                log.append(type(box.pop(idx)).__name__)
            elif op == "add":
                box = box + (nn.Sequential(new) if kind == "Sequential" else nn.ModuleList([new]))
            elif op == "iadd":
                before = id(box)
                box += nn.Sequential(new) if kind == "Sequential" else [new]
                log.append(id(box) == before)
            elif op == "mul":
                box = box * factor
            elif op == "rmul":
                box = factor * box
            elif op == "imul":
                before = id(box)
                box *= factor
                log.append(id(box) == before)
            elif op == "getitem":
                log.append(type(box[idx]).__name__)
            elif op == "getslice":
                log.append(repr(box[idx:]))
            elif op == "dir":
                log.append(sorted(k for k in dir(box) if k.isdigit() or k in ("conv", "act", "fc")))
        except Exception as e:      # noqa: BLE001  (the exception is the result compared)
            log.append((op, type(e).__name__, str(e).replace("torch.nn", "NN").replace("gradlab.nn", "NN")))
        log.append((type(box).__name__, list(box._modules), [type(m).__name__ for m in box]))
    return log


@pytest.mark.parametrize("kind", ["Sequential", "ModuleList"])
@pytest.mark.parametrize("seed", range(30))
def test_container_edits(kind, seed):
    """Sequential's item assignment (an OrderedDict's names kept), +=, *, *= and dir() without the numbers, and
    ModuleList's += in place (found by nn_sequential_summary): random edit sequences against live torch."""
    named = seed % 2 == 0
    steps = _container_program(seed, kind)
    assert _run_containers(gradlab, kind, named, steps) == _run_containers(torch, kind, named, steps)


def _reassign_run(lib, seed):
    """A module with three children, two parameters and a buffer, then random reassignments: what stays where."""
    r = random.Random(seed)
    nn = lib.nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.first = nn.Linear(2, 3)
            self.scale = nn.Parameter(lib.ones(1))
            self.middle = nn.ReLU()
            self.shift = nn.Parameter(lib.zeros(1))
            self.register_buffer("count", lib.zeros(1))
            self.last = nn.Linear(3, 1)

    net = Net()
    log = []
    for _ in range(r.randint(1, 4)):
        name = r.choice(["first", "middle", "last", "scale", "shift", "count", "extra"])
        value = r.choice(["module", "parameter", "none", "tensor"])
        new = {"module": lambda: nn.Tanh(), "parameter": lambda: nn.Parameter(lib.full((1,), 2.0)),
               "none": lambda: None, "tensor": lambda: lib.ones(1)}[value]()
        try:
            setattr(net, name, new)
            log.append((name, value, "ok"))
        except Exception as e:      # noqa: BLE001  (the exception is the result compared)
            log.append((name, value, type(e).__name__, str(e).replace("gradlab.", "torch.")))
        log.append(([n for n, _ in net.named_children()], [n for n, _ in net.named_parameters()],
                    list(net.state_dict().keys()), repr(net).replace("torch", "X").replace("gradlab", "X")))
    return log


@pytest.mark.parametrize("seed", range(40))
def test_reassigned_children_and_parameters_keep_their_place(seed):
    """`model.fc = nn.Linear(...)` puts the new layer where the old one was (print(model), parameters(), the
    state_dict): PyTorch's __setattr__ clears the name from the other registries only (found through Sequential's
    item assignment in nn_sequential_summary)."""
    assert _reassign_run(gradlab, seed) == _reassign_run(torch, seed)


def _foreign_files(count=60):
    """Bytes that save did not write: text, plain pickles of small values (whole or cut short), random bytes, a
    broken zip. (No byte that imports a name: GLOBAL, INST, STACK_GLOBAL, so weights_only=False runs nothing.)"""
    import pickle
    r = random.Random(5)
    files = [b"", b"PK\x03\x04broken", pickle.dumps(0x1950a86a20f9469cfc6c, protocol=2)]
    while len(files) < count:
        kind = r.choice(["text", "pickle", "cut", "bytes"])
        if kind == "text":
            files.append(" ".join(r.choice(["weights", "model", "{", "}", "0.5", "epoch", "\n"])
                                  for _ in range(r.randint(1, 5))).encode())
        elif kind in ("pickle", "cut"):
            value = r.choice([r.randint(-300, 70000), [1, 2.5], {"a": 1}, (1, (2,)), "text", None, True, 1.5, 2 ** 70])
            data = pickle.dumps(value, protocol=r.randint(0, 5))
            files.append(data[:r.randint(1, len(data) - 1)] if kind == "cut" else data)
        else:
            files.append(bytes(r.choice([b for b in range(256) if b not in b"ci\x93"]) for _ in range(r.randint(1, 8))))
    return files


@pytest.mark.parametrize("weights_only", [None, True, False])
@pytest.mark.parametrize("index", range(60))
def test_load_of_a_file_save_did_not_write(index, weights_only):
    """torch.load on bytes that are no checkpoint gives PyTorch's error: its legacy path's first pickle read by the
    weights-only unpickler ('Unsupported operand 110' in its long message), plain pickle's own errors, 'Invalid magic
    number; corrupt file?', miniz's message for a broken zip (found by core_checkpoint_bytesio)."""
    import io
    data = _foreign_files()[index]
    import warnings
    with warnings.catch_warnings(record=True) as expected_warnings:
        warnings.simplefilter("always")
        expected = _outcome(lambda: torch.load(io.BytesIO(data), weights_only=weights_only))
    with warnings.catch_warnings(record=True) as got_warnings:
        warnings.simplefilter("always")
        got = _outcome(lambda: gradlab.load(io.BytesIO(data), weights_only=weights_only))
    if expected[0] == "ok":
        pytest.skip("a file both libraries read")
    _same(expected, got)
    # (the weights-only unpickler's warning for a pickle protocol other than 2)
    assert [(w.category, str(w.message)) for w in got_warnings] == [
        (w.category, str(w.message)) for w in expected_warnings]


_TARGETS = ["", "0", "1", "1.0", "1.1", "1.1.weight", "0.weight", "0.bias", "1.0.weight", "2", "1.2", "x", "0.x",
            "1.1.bias", "1..0", ".", "1.0.0"]


def _submodule_run(lib, seed):
    """get_submodule, get_parameter and set_submodule on random dotted names of a nested Sequential."""
    r = random.Random(seed)
    nn = lib.nn
    lib.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, 3), nn.Sequential(nn.ReLU(), nn.Linear(3, 1)))
    log = []
    for _ in range(4):
        target = r.choice(_TARGETS)
        op = r.choice(["get", "param", "set", "set_strict", "set_bad"])
        try:
            if op == "get":
                log.append(type(model.get_submodule(target)).__name__)
            elif op == "param":
                log.append(tuple(model.get_parameter(target).shape))
            else:
                new = 3 if op == "set_bad" else nn.Tanh()
                log.append(model.set_submodule(target, new, strict=op == "set_strict"))
        except Exception as e:      # noqa: BLE001  (the exception is the result compared)
            log.append((op, target, type(e).__name__, str(e).replace("gradlab", "torch")))
        log.append(repr(model))
    return log


@pytest.mark.parametrize("seed", range(40))
def test_get_and_set_submodule(seed):
    """Module.set_submodule (missing before) and get_submodule/get_parameter's lookups and messages (a parameter on
    the path is "not an nn.Module"), on random dotted names (found writing train_freeze_finetune)."""
    assert _submodule_run(gradlab, seed) == _submodule_run(torch, seed)


@pytest.mark.parametrize("recurse", [True, False])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_to_empty_and_share_memory(recurse, dtype):
    """Module.to_empty (a module made on the meta device gets storage on the CPU) and Module.share_memory: what each
    tensor is afterwards (its values are uninitialized, so only shapes, dtypes, devices and flags are compared)."""
    def run(lib):
        made = lib.nn.Sequential(lib.nn.Linear(3, 2, device="meta", dtype=getattr(lib, dtype)),
                                 lib.nn.BatchNorm1d(2, device="meta", dtype=getattr(lib, dtype)))
        back = made.to_empty(device="cpu", recurse=recurse)
        state = [(k, tuple(v.shape), str(v.dtype), str(v.device), v.requires_grad, v.is_leaf)
                 for k, v in made.state_dict(keep_vars=True).items()]
        shared = lib.nn.Linear(2, 2).share_memory()
        return back is made, state, [p.is_shared() for p in shared.parameters()], type(shared).__name__
    assert run(gradlab) == run(torch)


def _load_run(lib, seed):
    """load_state_dict with random assign/strict flags, model and checkpoint devices (cpu, meta), dtypes and
    1-element vectors for 0-d buffers: what each tensor is afterwards, the warnings and the error."""
    import warnings
    r = random.Random(seed)
    nn = lib.nn
    lib.manual_seed(seed)
    model_device, ckpt_device = r.choice(["cpu", "meta"]), r.choice(["cpu", "cpu", "meta"])
    assign, strict = r.random() < 0.5, r.random() < 0.7
    model = nn.Sequential(nn.Linear(2, 3, device=model_device), nn.BatchNorm1d(3, device=model_device))
    source = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3)).to(ckpt_device)
    ckpt = dict(source.state_dict())
    if r.random() < 0.4:
        ckpt["0.bias"] = ckpt["0.bias"].double()
    if r.random() < 0.4 and ckpt_device == "cpu":
        ckpt["1.num_batches_tracked"] = lib.tensor([r.randint(0, 9)])
    if r.random() < 0.3:
        ckpt["0.weight"] = nn.Parameter(ckpt["0.weight"], requires_grad=False)
    if r.random() < 0.2:
        del ckpt["1.running_var"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = repr(model.load_state_dict(ckpt, strict=strict, assign=assign))
        except RuntimeError as e:
            result = ("RuntimeError", str(e))
    state = []
    for key, t in model.state_dict(keep_vars=True).items():
        same = t is ckpt.get(key) or (key in ckpt and not _is_meta(t) and not _is_meta(ckpt[key]) and
                                      t.data_ptr() == ckpt[key].data_ptr())
        values = None if _is_meta(t) else t.detach().tolist()
        state.append((key, str(t.dtype), str(t.device), type(t).__name__, t.requires_grad, same, values))
    return result, state, [str(w.message) for w in caught]


def _is_meta(t):
    return str(t.device) == "meta"


@pytest.mark.parametrize("seed", range(60))
def test_load_state_dict_assign_and_meta(seed):
    """load_state_dict(assign=True) puts the checkpoint's tensors into the module (their dtype and device, the
    module's requires_grad), and loading into meta parameters warns and does nothing; a meta checkpoint cannot be
    copied out of; a 1-element vector fills a 0-d buffer (found writing core_checkpoint_bytesio: assign was ignored)."""
    assert _load_run(gradlab, seed) == _load_run(torch, seed)


_META_MAKERS = [
    lambda lib, d: lib.nn.Linear(3, 2, device=d), lambda lib, d: lib.nn.Linear(0, 2, device=d),
    lambda lib, d: lib.nn.Linear(3, 2, bias=False, device=d), lambda lib, d: lib.nn.Conv2d(1, 2, 3, device=d),
    lambda lib, d: lib.nn.Conv1d(2, 2, 1, bias=False, device=d), lambda lib, d: lib.nn.Embedding(4, 2, device=d),
    lambda lib, d: lib.nn.MultiheadAttention(4, 2, device=d), lambda lib, d: lib.nn.Bilinear(2, 2, 3, device=d),
    lambda lib, d: lib.nn.LSTM(2, 3, device=d), lambda lib, d: lib.nn.init.kaiming_uniform_(lib.empty(3, 2, device=d)),
    lambda lib, d: lib.nn.init.kaiming_normal_(lib.empty(3, 2, device=d)),
    lambda lib, d: lib.nn.init.xavier_uniform_(lib.empty(3, 2, device=d)),
    lambda lib, d: lib.nn.init.xavier_normal_(lib.empty(3, 2, device=d)),
    lambda lib, d: lib.nn.init.uniform_(lib.empty(4, device=d)), lambda lib, d: lib.nn.init.normal_(lib.empty(4, device=d)),
]


@pytest.mark.parametrize("seed", range(30))
def test_meta_device_init_draws_nothing(seed):
    """Layers and nn.init fills on the meta device draw no numbers: the CPU generator does not advance, so what a
    program draws next is PyTorch's (found by test_load_state_dict_assign_and_meta's meta models)."""
    import warnings
    r = random.Random(seed)
    picks = [r.randrange(len(_META_MAKERS)) for _ in range(r.randint(1, 4))]

    def run(lib):
        lib.manual_seed(seed)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for i in picks:
                _META_MAKERS[i](lib, r.choice(["meta"]))
        return lib.rand(3).tolist(), [str(w.message) for w in caught]
    assert run(gradlab) == run(torch)
