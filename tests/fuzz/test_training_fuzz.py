"""Differential fuzzer of beginner TRAINING programs: nn layers, a loss, an optimizer, a scheduler, a few steps.

test_api_fuzz.py runs one call at a time and test_program_fuzz.py writes tensor/autograd programs; neither writes
what a training script does: build a model under manual_seed (gradlab reproduces torch's init streams), print it,
list its parameters, pick a loss and an optimizer with a scheduler, run zero_grad / forward / backward /
clip_grad_norm_ / step / scheduler.step() a few times, evaluate under no_grad, save and load state dicts, freeze
layers, and make the common mistakes (a wrong input shape, a float target for CrossEntropyLoss, backward twice,
an empty parameter list, scheduler.step() before optimizer.step(), ...). program(seed) writes one such program;
it runs twice, with `torch` bound to PyTorch and to gradlab, and each statement's outcome is a transcript line:
the value's printed text, dtype, shape, requires_grad, grad_fn name and a leaf's .grad, or the exception's type and
message, then what it printed and its warnings (category and text). The transcripts must agree line for line.

Most programs run in float64 (torch.set_default_dtype(torch.float64)): float32 matmul/linear/conv last bits come
from Intel MKL's sgemm, which gradlab cannot reproduce (a known, documented difference). A minority run in float32
and print only tensors (4 decimals); there a difference of one unit in the last printed digit is known ONLY when
every differing number differs by that much (all values of those programs go through Linear).

    python tests/fuzz/test_training_fuzz.py [--count N] [--start S] [--report path.md]   # many more programs
    python tests/fuzz/test_training_fuzz.py --seed S                                     # one program, both runs
"""
import argparse
import random
import re
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

import gradlab  # noqa: E402
from test_api_fuzz import _norm  # noqa: E402
from test_program_fuzz import run_statement  # noqa: E402  (the statement runner both program fuzzers share)

# Programs of the pytest range whose first difference is found but not fixed yet; `--seed N` shows each. Remove a
# seed once it agrees.
_CONV64_GEMM = (
    "float64 Conv1d/Conv2d then BatchNorm: batch norm's backward is bit-exact now (tests/nn/test_bn64_backward_bits.py, "
    "160 of 160), but the convolution's forward is not: PyTorch's float64 conv is im2col + MKL's dgemm with the bias "
    "as beta * C (measured on Conv1d(1, k, 3): bias + p0 + p1 + p2 left to right in 136 of 150 cases, not all), and "
    "gradlab's conv differs in the last bits (seed 21: 22 of 32 outputs); BatchNorm divides by the batch's small std "
    "and the steps grow it")
_BN_NOISE = (
    "Linear then BatchNorm1d on (N, C) (bit-exact here since this fuzzer's fixes): the Linear's bias gradient (and "
    "a dead unit's weights) is pure rounding noise (1e-16, exactly 0 in exact arithmetic), so the float64 dgemm's "
    "last-bit difference (see _gemm_rounding_only) shows in its printed digits and grows through the steps. Measured: "
    "F.linear's MKL product is a plain left-to-right sum for k <= 3 (283 of 283 random shapes, float32 and float64, "
    "each with and without bias, the bias added last), numpy's OpenBLAS is not; for k >= 4 MKL's order depends on "
    "the shape (plain for out_features <= 3 only; no simple fused-multiply-add order found for the others)")
OPEN_SEEDS = {
    **{s: _CONV64_GEMM for s in (21, 33, 50, 65, 73, 81, 94, 95, 98, 112, 113)},
    **{s: _BN_NOISE for s in (37, 63, 88, 90)},
}
# Found beyond the pytest range (`--start 120 --count 480`: 413 of 480 agree, the same 413 before and after float32
# randn and float64 batch norm were made bit-exact, with the same first differences):
# - 63 of the 67 differences are the two causes above (43 float64 Conv + BatchNorm, 20 float64 Linear + BatchNorm);
# - the other 4 are float32 programs without BatchNorm (178, 455, 543, 572), whose Linear's sgemm bits grow past one
#   printed digit;
# - 178 (float32; Heads, RMSprop alpha=0.9, OneCycleLR): reduced: the first Linear(2, 4)'s forward differs in 4 of 20
#   outputs by an ulp (PyTorch's sgemm for k = 2 is the plain sum x0 * w0 + x1 * w1, numpy's is not), and one
#   momentum_buffer entry near zero (-7.5e-03 among values ~8) grows it past one printed digit through RMSprop's
#   division by sqrt(square_avg);
# - 455 (float32, not float64; ModuleList of Linear + sigmoid, L1Loss, SGD momentum=0.9 weight_decay=0.01): reduced,
#   not a gradient bug: x = torch.randn(5, 4) had one number an ulp off (float32 randn's Box-Muller: fixed, see
#   gradlab/random/avx_mathfun.py); what remains is the first Linear(4, 5)'s sgemm (10 of 25 outputs an ulp off,
#   k = 4), and the entry 1.1628e-06 vs 1.1632e-06 is a cancelling sum (terms ~1e-3) of the weight's gradient.

COUNT = 120       # programs in the pytest run
BLOCK = 30        # programs per test


# ----------------------------------------------------------------------------------------------------------------
# the grammar

ACTS = ["nn.ReLU()", "nn.Tanh()", "nn.Sigmoid()", "nn.GELU()", "nn.LeakyReLU(0.1)", "nn.GELU(approximate='tanh')",
        "nn.ELU()", "nn.SiLU()", "nn.Softplus()"]


def _model(r, f64):
    """(source lines of the model, input expression, input features, output size hint, kind)."""
    act = r.choice(ACTS)
    n = r.choice([2, 3, 4, 5])
    kind = r.choice(["mlp", "mlp", "seq_dropout", "custom", "modulelist", "moduledict"]
                    + (["conv1d", "conv2d", "embed", "rnn", "bn1d"] if f64 else []))
    fin, hid = r.choice([2, 3, 4]), r.choice([3, 4, 5])
    out = r.choice([1, 2, 3])
    src = []
    x = f"torch.randn({n}, {fin})"
    if kind == "mlp":
        src.append(f"model = nn.Sequential(nn.Linear({fin}, {hid}), {act}, nn.Linear({hid}, {out}))")
    elif kind == "seq_dropout":
        src.append(f"model = nn.Sequential(nn.Linear({fin}, {hid}), {act}, nn.Dropout({r.choice([0.0, 0.2, 0.5])}), "
                   f"nn.Linear({hid}, {hid}, bias={r.choice([True, False])}), {r.choice(ACTS)}, "
                   f"nn.Linear({hid}, {out}))")
    elif kind == "bn1d":
        src.append(f"model = nn.Sequential(nn.Linear({fin}, {hid}), nn.BatchNorm1d({hid}"
                   f"{r.choice(['', ', momentum=0.5', ', affine=False', ', track_running_stats=False'])}), {act}, "
                   f"nn.LayerNorm({hid}), nn.Linear({hid}, {out}))")
    elif kind == "custom":
        src.append("class Net(nn.Module):\n"
                   "    def __init__(self):\n"
                   "        super().__init__()\n"
                   f"        self.fc1 = nn.Linear({fin}, {hid})\n"
                   f"        self.act = {act}\n"
                   f"        self.norm = nn.LayerNorm({hid}"
                   f"{r.choice(['', ', elementwise_affine=False', ', eps=1e-3'])})\n"
                   f"        self.fc2 = nn.Linear({hid}, {out})\n"
                   "    def forward(self, x):\n"
                   "        return self.fc2(self.norm(self.act(self.fc1(x))))")
        src.append("model = Net()")
    elif kind == "modulelist":
        src.append("class Stack(nn.Module):\n"
                   "    def __init__(self):\n"
                   "        super().__init__()\n"
                   f"        self.layers = nn.ModuleList([nn.Linear({fin}, {hid}), nn.Linear({hid}, {hid})])\n"
                   f"        self.head = nn.Linear({hid}, {out})\n"
                   "    def forward(self, x):\n"
                   "        for layer in self.layers:\n"
                   f"            x = torch.{r.choice(['relu', 'tanh', 'sigmoid'])}(layer(x))\n"
                   "        return self.head(x)")
        src.append("model = Stack()")
    elif kind == "moduledict":
        src.append("class Heads(nn.Module):\n"
                   "    def __init__(self):\n"
                   "        super().__init__()\n"
                   f"        self.body = nn.Sequential(nn.Linear({fin}, {hid}), {act})\n"
                   f"        self.heads = nn.ModuleDict({{'a': nn.Linear({hid}, {out}), "
                   f"'b': nn.Linear({hid}, {out})}})\n"
                   "    def forward(self, x):\n"
                   "        h = self.body(x)\n"
                   "        return self.heads['a'](h) + 0.5 * self.heads['b'](h)")
        src.append("model = Heads()")
    elif kind == "conv1d":
        c, k, L = r.choice([1, 2]), r.choice([2, 3]), r.choice([5, 6])
        pad = r.choice([0, 1])
        lout = L + 2 * pad - 2
        x = f"torch.randn({n}, {c}, {L})"
        src.append(f"model = nn.Sequential(nn.Conv1d({c}, {k}, 3, padding={pad}), nn.BatchNorm1d({k}), {act}, "
                   f"nn.Flatten(), nn.Linear({k * lout}, {out}))")
    elif kind == "conv2d":
        c, k, H = r.choice([1, 2]), r.choice([2, 3]), r.choice([4, 5])
        stride = r.choice([1, 2])
        hout = (H - 3) // stride + 1
        x = f"torch.randn({n}, {c}, {H}, {H})"
        src.append(f"model = nn.Sequential(nn.Conv2d({c}, {k}, 3, stride={stride}), nn.BatchNorm2d({k}), {act}, "
                   f"{r.choice(['nn.Identity(), ', 'nn.Dropout(0.3), ', ''])}nn.Flatten(), "
                   f"nn.Linear({k * hout * hout}, {out}))")
    elif kind == "embed":
        V, L = r.choice([5, 7]), r.choice([3, 4])
        x = f"torch.randint(0, {V}, ({n}, {L}))"
        src.append("class Bag(nn.Module):\n"
                   "    def __init__(self):\n"
                   "        super().__init__()\n"
                   f"        self.emb = nn.Embedding({V}, {hid}{r.choice(['', ', padding_idx=0', ', max_norm=1.0'])})\n"
                   f"        self.norm = nn.LayerNorm({hid})\n"
                   f"        self.fc = nn.Linear({hid}, {out})\n"
                   "    def forward(self, x):\n"
                   "        return self.fc(self.norm(self.emb(x)).mean(1))")
        src.append("model = Bag()")
    elif kind == "rnn":
        cell = r.choice(["RNN", "LSTM", "GRU"])
        L = r.choice([2, 3])
        layers = r.choice([1, 2])
        x = f"torch.randn({n}, {L}, {fin})"
        src.append("class Seq(nn.Module):\n"
                   "    def __init__(self):\n"
                   "        super().__init__()\n"
                   f"        self.rnn = nn.{cell}({fin}, {hid}, num_layers={layers}, batch_first=True"
                   f"{r.choice(['', ', bidirectional=True'])})\n"
                   f"        self.fc = nn.Linear(self.rnn.hidden_size * (2 if self.rnn.bidirectional else 1), {out})\n"
                   "    def forward(self, x):\n"
                   "        y, _ = self.rnn(x)\n"
                   "        return self.fc(y[:, -1])")
        src.append("model = Seq()")
    return src, x, n, out, kind


def _loss(r, n, out):
    """(loss source, target source, task)."""
    task = r.choice(["reg", "reg", "cls", "cls", "bin"])
    red = r.choice(["", "", "reduction='sum'", "reduction='mean'"])
    if task == "reg":
        name = r.choice(["nn.MSELoss", "nn.L1Loss", "nn.SmoothL1Loss", "nn.HuberLoss"])
        extra = []
        if name == "nn.SmoothL1Loss":
            extra.append(r.choice(["", "beta=0.5"]))
        if name == "nn.HuberLoss":
            extra.append(r.choice(["", "delta=0.3"]))
        args = ", ".join(a for a in [red] + extra if a)
        return f"loss_fn = {name}({args})", f"torch.randn({n}, {out})", task
    if task == "bin":
        pw = r.choice(["", f"pos_weight=torch.ones({out}) * 2"])
        args = ", ".join(a for a in [red, pw] if a)
        target = f"torch.randint(0, 2, ({n}, {out})).to(torch.get_default_dtype())"
        return f"loss_fn = nn.BCEWithLogitsLoss({args})", target, task
    C = max(out, 2)
    extra = [red]
    if r.random() < 0.3:
        extra.append(f"weight=torch.linspace(0.5, 1.5, {C})")
    if r.random() < 0.3:
        extra.append(f"ignore_index={r.choice([0, 1, -100])}")
    if r.random() < 0.3:
        extra.append("label_smoothing=0.1")
    name = "nn.CrossEntropyLoss" if r.random() < 0.75 else "nn.NLLLoss"
    if name == "nn.NLLLoss":
        extra = [e for e in extra if not e.startswith("label")]
    return f"loss_fn = {name}({', '.join(a for a in extra if a)})", f"torch.randint(0, {C}, ({n},))", "cls:" + name


def _optimizer(r):
    lr = r.choice(["0.1", "0.05", "0.01"])
    kind = r.choice(["SGD", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta"])
    opts = []
    if kind == "SGD":
        if r.random() < 0.6:
            opts.append(f"momentum={r.choice([0.5, 0.9])}")
            if r.random() < 0.3:
                opts.append("nesterov=True")
            elif r.random() < 0.3:
                opts.append("dampening=0.1")
        if r.random() < 0.3:
            opts.append("weight_decay=0.01")
    elif kind in ("Adam", "AdamW"):
        if r.random() < 0.3:
            opts.append("amsgrad=True")
        if r.random() < 0.3:
            opts.append("weight_decay=0.1")
        if r.random() < 0.2:
            opts.append("betas=(0.8, 0.99)")
    elif kind == "RMSprop":
        opts.append(r.choice(["", "momentum=0.5", "centered=True", "alpha=0.9"]))
    elif kind == "Adagrad":
        opts.append(r.choice(["", "lr_decay=0.01", "initial_accumulator_value=0.1"]))
    elif kind == "Adadelta":
        lr = "1.0"
        opts.append(r.choice(["", "rho=0.8"]))
    args = ", ".join(a for a in [f"lr={lr}"] + opts if a)
    return f"optimizer = torch.optim.{kind}(model.parameters(), {args})"


def _scheduler(r):
    kind = r.choice(["none", "StepLR", "MultiStepLR", "ExponentialLR", "CosineAnnealingLR", "ReduceLROnPlateau",
                     "LambdaLR", "OneCycleLR"])
    return kind, {
        "none": None,
        "StepLR": "scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)",
        "MultiStepLR": "scheduler = torch.optim.lr_scheduler.MultiStepLR(optimizer, milestones=[1, 3], gamma=0.1)",
        "ExponentialLR": "scheduler = torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma=0.9)",
        "CosineAnnealingLR": "scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=4)",
        "ReduceLROnPlateau":
            "scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, patience=0, factor=0.5)",
        "LambdaLR": "scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda epoch: 0.9 ** epoch)",
        "OneCycleLR": "scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=0.1, total_steps=10)",
    }[kind]


MISTAKES = [
    ("wrong input shape", "model(torch.randn(2, 7))"),
    ("backward twice", "loss = loss_fn(model(x), y)\nloss.backward()\nloss.backward()"),
    ("empty parameter list", "torch.optim.SGD([], lr=0.1)"),
    ("module as params", "torch.optim.SGD(model, lr=0.1)"),
    ("non-scalar backward", "model(x).backward()"),
    ("item of many", "model(x).item()"),
    ("no_grad backward", "with torch.no_grad():\n    bad = loss_fn(model(x), y)\nbad.backward()"),
    ("load empty state_dict", "model.load_state_dict({})"),
    ("load non-strict", "model.load_state_dict({}, strict=False)"),
    ("unknown key", "sd = dict(model.state_dict())\nsd['extra.weight'] = torch.zeros(1)\nmodel.load_state_dict(sd)"),
    ("step without backward", "optimizer.zero_grad()\noptimizer.step()"),
    ("lr negative", "torch.optim.SGD(model.parameters(), lr=-1.0)"),
    ("target float for CE", "nn.CrossEntropyLoss()(model(x), y.to(torch.get_default_dtype()))"),
    ("target long for BCE", "nn.BCEWithLogitsLoss()(model(x), y.long())"),
    ("mse broadcast", "nn.MSELoss()(model(x), y[:1])"),
    ("numpy of param", "next(model.parameters()).numpy()"),
    ("grad of non-leaf", "out = model(x)\nout.grad"),
    ("inplace on param", "next(model.parameters()).add_(1.0)"),
]


def program(seed):
    """A training program: a list of (family, source) statements (a source may span lines)."""
    r = random.Random(seed)
    f64 = r.random() < 0.8
    lines = []
    add = lambda family, src: lines.append((family, src))   # noqa: E731
    if f64:
        add("setup", "torch.set_default_dtype(torch.float64)")
    add("setup", f"torch.manual_seed({r.randrange(1000)})")
    model_src, x, n, out, kind = _model(r, f64)
    for s in model_src:
        add("model:" + kind, s)
    loss_src, y_src, task = _loss(r, n, out)
    if task.startswith("cls") and out < 2:
        # (a classifier needs 2 outputs at least: rebuild the last layer)
        lines[-1] = ("model:" + kind, lines[-1][1])
        add("model", "model = nn.Sequential(model, nn.Linear(1, 2))")
    if task == "cls:nn.NLLLoss":
        add("model", "model = nn.Sequential(model, nn.LogSoftmax(dim=1))")
    add("data", f"x = {x}")
    add("data", f"y = {y_src}")
    add("loss", loss_src)
    if f64 or r.random() < 0.5:
        add("inspect", "print(model)")
    add("inspect", "[(name, tuple(p.shape), p.requires_grad) for name, p in model.named_parameters()]")
    add("inspect", "sum(p.numel() for p in model.parameters())")
    if r.random() < 0.3:
        add("inspect", "list(model.state_dict().keys())")
    if r.random() < 0.2:
        add("freeze", "for p in list(model.parameters())[:2]:\n    p.requires_grad_(False)")
        add("freeze", "[p.requires_grad for p in model.parameters()]")
    add("optim", _optimizer(r))
    sched_kind, sched = _scheduler(r)
    if sched:
        add("sched", sched)
    if r.random() < 0.3:
        add("train", r.choice(["model.train()", "model.eval()"]))
    mistakes = r.sample(MISTAKES, k=r.choice([0, 1, 1, 2]))
    steps = r.choice([2, 3, 4])
    for step in range(steps):
        if r.random() < 0.85:
            add("step", "optimizer.zero_grad()")
        add("step", "out = model(x)")
        add("step", "loss = loss_fn(out, y)")
        add("step", "loss.backward()")
        if r.random() < 0.3:
            add("step", f"total = torch.nn.utils.clip_grad_norm_(model.parameters(), {r.choice([0.5, 1.0])})"
                if f64 else "total = torch.nn.utils.clip_grad_value_(model.parameters(), 0.1)")
        if r.random() < 0.4:
            add("grads", "[p.grad for p in model.parameters()]")
        add("step", "optimizer.step()")
        if sched_kind == "ReduceLROnPlateau":
            add("sched", "scheduler.step(loss.item())")
        elif sched:
            add("sched", "scheduler.step()")
        add("print", "loss.item()" if f64 else "loss")
        if sched or r.random() < 0.3:
            add("print", "optimizer.param_groups[0]['lr']")
            if sched and sched_kind != "ReduceLROnPlateau" and r.random() < 0.5:
                add("print", "scheduler.get_last_lr()")
        if mistakes and r.random() < 0.4:
            family, src = mistakes.pop()
            add("mistake:" + family, src)
    for family, src in mistakes:
        add("mistake:" + family, src)
    add("params", "list(model.parameters())")
    if r.random() < 0.6:
        add("state", "optimizer.state_dict()")
    if sched and r.random() < 0.5 and (f64 or sched_kind != "ReduceLROnPlateau"):   # (its 'best': a float32 loss whole)
        add("state", "{k: v for k, v in scheduler.state_dict().items() if not callable(v) and k != 'lr_lambdas'}")
    if r.random() < 0.6:
        add("eval", "model.eval()")
        add("eval", "with torch.no_grad():\n    pred = model(x)")
        if task.startswith("cls"):
            add("eval", "(pred.argmax(1) == y).float().mean()")
        elif task == "bin":
            add("eval", "((pred > 0).to(y.dtype) == y).float().mean()")
    if r.random() < 0.4:
        add("state", "saved = {k: v.clone() for k, v in model.state_dict().items()}")
        add("state", "model.load_state_dict(saved)")
        if r.random() < 0.5:
            add("state", "opt_state = optimizer.state_dict()\noptimizer.load_state_dict(opt_state)")
            add("state", "optimizer.state_dict()['param_groups']")
    return lines


# ----------------------------------------------------------------------------------------------------------------
# running and comparing

def _is_tensor(v):
    return isinstance(v, (torch.Tensor, gradlab.Tensor))


def show(v, depth=0):
    """One comparable text for a value: its printed text and the metadata a training program reads."""
    if _is_tensor(v):
        gf = v.grad_fn
        text = (f"T {_norm(repr(v))} | {_norm(str(v.dtype))} {tuple(v.shape)} rg={v.requires_grad} "
                f"fn={None if gf is None else type(gf).__name__}")
        if v.is_leaf and depth < 3:
            text += f" grad={show(v.grad, depth + 3)}"
        return text
    if isinstance(v, (torch.Size, gradlab.Size)):
        return _norm(repr(v))
    if isinstance(v, (list, tuple)) and depth < 5:
        inner = ", ".join(show(x, depth + 1) for x in v)
        name = type(v).__name__
        return f"{name}({inner})" if name not in ("list", "tuple") else f"{name}[{inner}]"
    if isinstance(v, dict) and depth < 5:
        return "dict{" + ", ".join(f"{k!r}: {show(x, depth + 1)}" for k, x in v.items()) + "}"
    if v is None or isinstance(v, (bool, int, float, str)):
        return f"{type(v).__name__} {_norm(repr(v))}"
    if isinstance(v, (torch.nn.Module, gradlab.nn.Module, torch.optim.Optimizer, gradlab.optim.Optimizer)):
        return f"{type(v).__name__} {_norm(repr(v))}"
    return _norm(type(v).__name__)


def run(lib, lines):
    """The transcript of a program under `lib`: [(text, internal-error note or None)] per statement."""
    ns = {"torch": lib, "nn": lib.nn, "F": lib.nn.functional}
    always = lib.is_warn_always_enabled()
    lib.set_warn_always(True)
    lib.manual_seed(0)
    try:
        return [run_statement(ns, source, lambda value, _: show(value)) for _, source in lines]
    finally:
        lib.set_warn_always(always)
        lib.set_grad_enabled(True)
        lib.set_default_dtype(lib.float32)


_NUMBER = re.compile(r"-?\d+\.\d+(?:e[-+]?\d+)?|-?\d+e[-+]?\d+")


def _gemm_rounding_only(tt, gt):
    """True when two lines differ only in numbers, each by what BLAS's summation order can make of them: one unit
    of the last printed digit of a tensor's 4-decimal text, or 1e-11 relative of a float printed whole (17 digits).
    Every value of these programs goes through Linear/Conv (gemm): float32's is MKL's sgemm, and float64's is
    MKL's dgemm, whose order is not numpy's either (measured: 144 of 200 random small float64 F.linear calls
    differ from numpy's OpenBLAS in the last bits; PyTorch's equals a plain left-to-right sum for k <= 4).
    Everything else in the line (structure, dtypes, shapes, grad_fn names, messages) must still be equal."""
    if _NUMBER.sub("#", tt) != _NUMBER.sub("#", gt):
        return False
    for a, b in zip(_NUMBER.findall(tt), _NUMBER.findall(gt)):
        if a == b:
            continue
        fa, fb = float(a), float(b)
        mantissa = a.split("e")[0]
        digits = len(mantissa.split(".")[1]) if "." in mantissa else 0
        if digits >= 12:             # a Python float printed whole
            if abs(fa - fb) > 1e-11 * max(abs(fa), abs(fb)):
                return False
        elif abs(fa - fb) > 1.01 * 10.0 ** -digits * (10.0 ** int(a.split("e")[1]) if "e" in a else 1):
            return False
    return True


def compare(seed):
    """None when the transcripts agree, else (family, statement, torch line, gradlab line, note, program)."""
    lines = program(seed)
    t = run(torch, lines)
    g = run(gradlab, lines)
    for i, ((tt, _), (gt, internal)) in enumerate(zip(t, g)):
        if tt != gt or (internal and internal.startswith("warning")):   # (both raising the same: the program's)
            if tt != gt and not internal and _gemm_rounding_only(tt, gt):
                continue      # (gemm's rounding, and only that: see _gemm_rounding_only)
            family, src = lines[i]
            return family, src, tt, gt, internal, lines
    return None


def report_one(seed, diff):
    family, src, tt, gt, internal, lines = diff
    return "\n".join([f"--- seed {seed}: first difference at [{family}] `{src}`"
                      + (f" (gradlab internal error: {internal})" if internal else ""),
                      "program:", "    " + "\n".join(s for _, s in lines).replace("\n", "\n    "),
                      f"torch:   {tt}", f"gradlab: {gt}"])


@pytest.mark.parametrize("start", range(0, COUNT, BLOCK), ids=lambda s: f"seeds{s}-{s + BLOCK - 1}")
def test_training_programs_agree(start):
    failures = []
    for seed in range(start, start + BLOCK):
        if seed in OPEN_SEEDS:
            continue
        diff = compare(seed)
        if diff:
            failures.append((seed, diff))
    if failures:
        pytest.fail(f"{len(failures)} of {BLOCK} training programs differ from PyTorch "
                    f"(seeds {[s for s, _ in failures]}); the first:\n" + report_one(*failures[0]), pytrace=False)


def test_transcripts_can_fail():
    """The comparison sees a difference: a training step whose gradlab learning rate is changed behind its back."""
    lines = [("setup", "torch.set_default_dtype(torch.float64)"), ("setup", "torch.manual_seed(0)"),
             ("model", "model = nn.Linear(2, 1)"),
             ("optim", "optimizer = torch.optim.SGD(model.parameters(), lr=0.1)"),
             ("step", "loss = model(torch.ones(1, 2)).sum()"), ("step", "loss.backward()"),
             ("step", "optimizer.step()"), ("print", "list(model.parameters())")]
    assert run(torch, lines) == run(gradlab, lines)
    changed = lines[:4] + [("bug", "optimizer.param_groups[0]['lr'] = 0.1 if torch is __import__('torch') else 0.2")]
    assert run(torch, changed + lines[4:]) != run(gradlab, changed + lines[4:])
    assert not _gemm_rounding_only("T tensor([0.1235])", "T tensor([0.1245])")
    assert _gemm_rounding_only("T tensor([0.1235])", "T tensor([0.1236])")


def test_programs_cover_the_grammar():
    """The grammar writes every model kind, loss, optimizer, scheduler and mistake (in its first 1,000 programs)."""
    text = "\n".join(s for seed in range(1000) for _, s in program(seed))
    for name in ["nn.Conv1d", "nn.Conv2d", "nn.BatchNorm2d", "nn.Embedding", "nn.LSTM", "nn.GRU", "nn.RNN(",
                 "ModuleList", "ModuleDict", "CrossEntropyLoss", "NLLLoss", "BCEWithLogitsLoss", "HuberLoss",
                 "SmoothL1Loss", "L1Loss", "optim.SGD", "optim.Adam(", "optim.AdamW", "optim.RMSprop", "optim.Adagrad",
                 "optim.Adadelta", "StepLR", "MultiStepLR", "ExponentialLR", "CosineAnnealingLR",
                 "ReduceLROnPlateau", "LambdaLR", "OneCycleLR", "clip_grad_norm_", "load_state_dict"]:
        assert name in text, name
    for _, src in MISTAKES:
        assert src in text, src


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--seed", type=int)
    parser.add_argument("--report", default="training_fuzz_report.md")
    args = parser.parse_args()
    if args.seed is not None:
        lines = program(args.seed)
        print("\n".join(s for _, s in lines))
        for (tt, _), (gt, internal) in zip(run(torch, lines), run(gradlab, lines)):
            print(("   " if tt == gt and not internal else "!! ") + tt.replace("\n", "\n   "))
            if tt != gt or internal:
                print("   gradlab: " + gt.replace("\n", "\n   ") + (f"  [internal: {internal}]" if internal else ""))
        return
    began = time.time()
    groups, ok, statements = {}, 0, 0
    for seed in range(args.start, args.start + args.count):
        lines = program(seed)
        statements += len(lines)
        try:
            diff = compare(seed)
        except Exception as e:  # noqa: BLE001  (a harness error must not stop the report)
            diff = ("harness", repr(e), "", "", None, lines)
        if diff is None:
            ok += 1
            continue
        key = (diff[0], diff[1].split("\n")[0][:60], "internal" if diff[4] else "", OPEN_SEEDS.get(seed, ""))
        groups.setdefault(key, []).append((seed, diff))
    out = [f"# Training fuzzer: {ok} of {args.count} programs agree ({statements} statements, "
           f"{time.time() - began:.0f} s)", ""]
    for (family, src, internal, reason), items in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        out.append(f"## {family} `{src}` {internal} — {len(items)} programs: {[s for s, _ in items][:20]}"
                   + (f" (open: {reason})" if reason else ""))
        for seed, diff in items[:2]:
            out += ["```", report_one(seed, diff), "```"]
    Path(args.report).write_text("\n".join(out) + "\n")
    print("\n".join(out[:1]) + f"\nreport: {args.report}")


if __name__ == "__main__":
    main()
