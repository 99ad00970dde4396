"""What an independent explorer of bad input found (issue 14: wrong types, arity, unknown and duplicate keywords,
out-of-range dims, mismatched shapes, dtypes kernels refuse, devices), each finding widened into generated cases
run under gradlab and under live torch: the exception's type and message (or, where PyTorch takes the call, the
result's type, dtype and shape), and the warnings, must be the same.

- torch.linalg's functions are C functions (linalg_inv, ...): their parser's TypeErrors (missing, surplus and
  unknown arguments, numpy's keyword names);
- nn's modules hand the user's settings to C functions that parse them (nn.AvgPool2d(4, True): "argument
  'stride' (position 3) must be tuple of ints, not bool"), and so do nn.functional's Python functions (dropout's
  training, embedding's max_norm and padding_idx, cross_entropy's ignore_index and label_smoothing,
  hinge_embedding_loss's margin, poisson_nll_loss's log_input, kl_div's log_target, instance_norm's eps, pad's
  mode), einsum's equation and meshgrid's indexing;
- torch.typename in "... is not a Module subclass" (F.relu, torch.relu, a lambda); Tensor.type's and
  set_detect_anomaly's parsers; new_tensor's duplicate data; Size.numel's C words; squeeze(0, 1); finfo/iinfo's
  parser; assert_close naming torch's classes; atleast_2d's own name;
- expand's checks from the last dim (which leading -1 is named) and a negative leading size;
- kernels without complex (or integer) versions: nll_loss, mse, huber, smooth_l1, binary_cross_entropy(_with_logits),
  kl_div, dropout, max_pool1d; cumprod(dtype=torch.bool);
- zero dilation in convolutions (the slow kernel's words, or oneDNN's for a float batch); binary_cross_entropy's
  element-by-element check of input then target; channels_last for a tensor that is not 4-d.
"""
import itertools
import random
import warnings

import numpy as np
import pytest

import gradlab
from gradlab import _signatures

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def _describe(value, values):
    if isinstance(value, (tuple, list)):
        return type(value).__name__, tuple(_describe(v, values) for v in value)
    if type(value).__name__ in ("Tensor", "Parameter"):
        shown = str(value) if values else None
        return "Tensor", str(value.dtype), tuple(value.shape), value.requires_grad, shown
    if type(value).__name__ in ("Size", "finfo", "iinfo", "dtype", "bool", "int", "str", "NoneType"):
        return type(value).__name__, str(value)
    return type(value).__name__


def outcome(module, code, values=False):
    """What running code under module (torch or gradlab) gives: its exception's type and message, or its
    result `r` described (values only where asked: numerics may differ in the last bit), and its warnings."""
    namespace = {"torch": module, "nn": module.nn, "F": module.nn.functional, "np": np}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module.manual_seed(0)
        try:
            exec(code, namespace)
            result = _describe(namespace.get("r"), values)
        except Exception as error:  # noqa: BLE001 - the point is to compare whatever is raised
            result = f"{type(error).__name__}: {error}"
    shown = sorted({(w.category.__name__, str(w.message)) for w in caught
                    if not issubclass(w.category, DeprecationWarning)})
    return result, shown


def check(code, values=False):
    assert outcome(gradlab, code, values) == outcome(torch, code, values)


# a few wrong values of every kind a student or a generator passes
_WRONG = ["'abc'", "None", "['a', 'b']", "[[1, 2], [3]]", "np.array([1.0, 2.0])", "np.float64(1.5)", "1.5", "True",
          "(1, 2)", "torch.float32", "torch.tensor([1, 2])", "{}", "slice(1)", "2 + 3j", "object"]


# ------------------------------------------------------------------------------------------ torch.linalg's parser

_LINALG_FORMS = ["torch.linalg.{n}()", "torch.linalg.{n}(a, 1, 2, 3, 4, 5, 6)", "torch.linalg.{n}(a, foo=1)",
                 "torch.linalg.{n}({w})", "torch.linalg.{n}(a, a, out=1)", "torch.linalg.{n}(input=a, x=a)"]
_LINALG_RNG = random.Random(14)
LINALG_CASES = sorted({"a = torch.eye(3) + torch.ones(3, 3); r = " + form.format(n=name, w=_LINALG_RNG.choice(_WRONG))
                       for name in sorted(_signatures.LINALG) for form in _LINALG_FORMS})
LINALG_CASES += ["a = torch.ones(2, 2); r = torch.linalg.vector_norm(a, keepdims=True)",
                 "a = torch.ones(2, 2); r = torch.linalg.vector_norm(a, x=a)",
                 "a = torch.ones(2, 2); r = torch.linalg.vector_norm(x=a, axis=0)",
                 "a = torch.ones(2, 2); r = torch.linalg.norm(a, dim='x')",
                 "a = torch.ones(2, 2); r = torch.linalg.norm(a, 0, ord=3)",
                 "a = torch.ones(2, 2); r = torch.linalg.cross(a, a, dim=1.5)",
                 "a = torch.eye(2); r = torch.linalg.eigh(a, 'X')",
                 "a = torch.eye(2); r = torch.linalg.solve(a, 'a')"]


@pytest.mark.parametrize("code", LINALG_CASES)
def test_linalg_parser(code):
    check(code)


# ------------------------------------------------------------------------------------------ modules' settings

# (a module, an input, and the setting places where a wrong value reaches a C function's parser)
_MODULES = [("nn.AvgPool2d(2, {v})", "torch.randn(1, 2, 4, 4)"), ("nn.AvgPool2d({v}, 1)", "torch.randn(1, 2, 4, 4)"),
            ("nn.MaxPool2d(2, padding={v})", "torch.randn(1, 2, 4, 4)"), ("nn.AvgPool1d({v})", "torch.randn(1, 2, 4)"),
            ("nn.Softplus({v})", "torch.randn(3)"), ("nn.Softplus(threshold={v})", "torch.randn(3)"),
            ("nn.ConvTranspose2d(2, 1, 1, stride={v})", "torch.randn(1, 2, 3, 3)"),
            ("nn.Conv2d(2, 1, 1, dilation={v})", "torch.randn(1, 2, 3, 3)"),
            ("nn.Hardtanh({v}, 1.0)", "torch.randn(3)"), ("nn.ELU({v})", "torch.randn(3)"),
            ("nn.LeakyReLU({v})", "torch.randn(3)"), ("nn.Threshold({v}, 0.0)", "torch.randn(3)"),
            ("nn.Embedding(4, 2, max_norm={v})", "torch.tensor([[1, 2]])"),
            ("nn.Embedding(4, 2, padding_idx={v})", "torch.tensor([1])"),
            ("nn.CrossEntropyLoss(ignore_index={v})", "torch.randn(3, 4), torch.tensor([0, 1, 2])"),
            ("nn.CrossEntropyLoss(label_smoothing={v})", "torch.randn(3, 4), torch.tensor([0, 1, 2])"),
            ("nn.InstanceNorm1d(2, {v})", "torch.randn(1, 2, 4)"), ("nn.Dropout(0.5, {v})", "torch.randn(3)"),
            ("nn.Hardshrink({v})", "torch.randn(3)"), ("nn.CELU({v})", "torch.randn(3)")]
MODULE_CASES = [f"m = {ctor.format(v=v)}; r = m({x})" for ctor, x in _MODULES
                for v in ["True", "None", "'a'", "torch.tensor([1, 2])", "np.array([1.0, 2.0])", "(1, 2, 3)", "2.5"]]


@pytest.mark.parametrize("code", MODULE_CASES)
def test_module_settings_parsed(code):
    check(code)


# ------------------------------------------------------------------------------------------ Python fronts' C calls

_FRONTS = ["F.dropout(x, {v})", "F.dropout(x, 0.5, {v})", "F.dropout(x, 0.5, training={v}, inplace=True)",
           "F.dropout({v}, 0.5)", "F.embedding(torch.tensor([1]), w, max_norm={v})",
           "F.embedding(torch.tensor([1]), w, padding_idx={v})", "F.embedding({v}, w, max_norm=1.0)",
           "F.cross_entropy(x2, t, ignore_index={v})", "F.cross_entropy(x2, t, label_smoothing={v})",
           "F.cross_entropy(x2, {v})", "torch.einsum({v}, x)", "torch.einsum('i,i', x, {v})",
           "torch.einsum('ij->ji', {v})", "torch.meshgrid(x, x, indexing={v})", "torch.meshgrid(x, {v})",
           "F.hinge_embedding_loss(x, x, margin={v})", "F.poisson_nll_loss(x, x, log_input={v})",
           "F.poisson_nll_loss(x, x, full={v})", "F.poisson_nll_loss(x, x, eps={v})",
           "F.kl_div(x, x, reduction='sum', log_target={v})", "F.kl_div(x, x, reduction='batchmean', log_target={v})",
           "F.margin_ranking_loss(x, x, x, margin={v})", "F.cosine_embedding_loss(x2, x2, torch.ones(3), margin={v})",
           "F.instance_norm(torch.randn(1, 2, 4), eps={v})", "F.instance_norm(torch.randn(1, 2, 4), momentum={v})",
           "F.pad(x2, (1, 0), {v})", "F.pad(x2, (1, 0), 'constant', {v})",
           "torch.autograd.set_detect_anomaly({v})", "torch.autograd.set_detect_anomaly(False, {v})",
           "x.type(torch.float16, {v})", "x.type(torch.float16, memory_format={v})"]
_SETUP = "x = torch.randn(4); x2 = torch.randn(3, 4); t = torch.tensor([0, 1, 2]); w = torch.randn(4, 2); "
FRONT_CASES = [_SETUP + "r = " + form.format(v=v) for form in _FRONTS for v in _WRONG + ["1", "0.5", "'sum'"]]
# the valid forms, which must still pass
FRONT_CASES += [_SETUP + "r = " + c for c in (
    "F.dropout(x, 0.5, True)", "F.dropout(x, 0.0)", "F.embedding(torch.tensor([1]), w, max_norm=1.0)",
    "F.cross_entropy(x2, t, label_smoothing=0.1, ignore_index=1)", "torch.einsum('i,i', x, x)",
    "torch.meshgrid(x, x, indexing='xy')", "F.hinge_embedding_loss(x, x, margin=2)", "F.poisson_nll_loss(x, x)",
    "F.kl_div(x, x, reduction='batchmean')", "F.kl_div(x, x, reduce=False)",
    "F.margin_ranking_loss(x, x, x, reduction='sum')", "F.cosine_embedding_loss(x2, x2, torch.ones(3))",
    "F.instance_norm(torch.randn(1, 2, 4))", "F.pad(x2, (1, 0), 'constant', 1)", "F.pad(x2, (1, 0), 'reflect')",
    "x.type(torch.float16, True)", "x.type(dtype=torch.float16, non_blocking=True)")]


@pytest.mark.parametrize("code", FRONT_CASES)
def test_python_fronts_parse(code):
    check(code)


# ------------------------------------------------------------------------------------------ smaller parsers

_NOT_MODULES = ["F.relu", "F.gelu", "F.softmax", "F.cross_entropy", "torch.relu", "torch.sigmoid", "lambda x: x", "1",
                "'a'", "torch.ones(2)", "nn.ReLU", "torch.optim.SGD", "torch.float32", "[nn.ReLU()]",
                "torch.nn.init.normal_", "np.ones(2)"]
TYPENAME_CASES = [c.format(v=v) for v in _NOT_MODULES for c in (
    "r = nn.Sequential(nn.Linear(3, 2), {v})", "r = nn.ModuleList([{v}])", "r = nn.Linear(2, 2).add_module('a', {v})")]
MISC_CASES = [
    "x = torch.ones(2); r = x.type(torch.float16, input=x)", "x = torch.ones(2); r = x.type(torch.half, dtype=torch.half)",
    "x = torch.ones(2); r = x.type(torch.float16, True, 1)", "x = torch.ones(2); r = x.type(foo=1)",
    "x = torch.ones(2); r = x.type('torch.DoubleTensor')", "x = torch.ones(2); r = x.new_tensor([1], data=[2])",
    "x = torch.ones(2); r = x.new_tensor([1], foo=2)", "r = torch.Size([2, 3]).numel(1)",
    "r = torch.Size([2, 3]).numel(a=1)", "r = torch.Size([2, 3]).numel()",
    "r = torch.testing.assert_close(torch.ones(2), [1., 1.])", "r = torch.testing.assert_close(1, torch.ones(2))",
    "r = torch.testing.assert_close(nn.Parameter(torch.ones(2)), 'a')",
    "r = torch.autograd.set_detect_anomaly(True, check_nan=True)"]
MISC_CASES += [f"r = nn.Parameter({d}, {v})" for d in ("torch.randn(2)", "torch.tensor([1, 2])", "None", "[1.0]")
               for v in _WRONG + ["1", "np.bool_(False)", "False"]]
MISC_CASES += [f"r = torch.{f}({v})" for f in ("finfo", "iinfo") for v in _WRONG + ["float", "int", "bool", "complex",
                                                                                  "torch.int8", "torch.float16"]]
MISC_CASES += [f"r = torch.{f}(torch.ones(2), {k}=0)" for f in ("atleast_1d", "atleast_2d", "atleast_3d")
               for k in ("size", "input", "dim")]


@pytest.mark.parametrize("code", TYPENAME_CASES + MISC_CASES)
def test_small_parsers(code):
    check(code)


# squeeze's dims as varargs (x.squeeze(0, 1)), on generated shapes
SQUEEZE_CASES = [f"r = torch.ones{shape}.{m}({', '.join(map(str, dims))})"
                 for shape in ((1, 1, 3), (2, 1), (1,), (1, 3, 1, 1))
                 for dims in itertools.chain(itertools.permutations(range(-len(shape), len(shape) + 1), 2),
                                             [(0, 0), (0, 1, 2), (0, 'a'), (0, 1.5), (None, 1)])
                 for m in ("squeeze", "squeeze_")][::3]


@pytest.mark.parametrize("code", SQUEEZE_CASES)
def test_squeeze_dims_as_varargs(code):
    check(code, values=True)


# expand: ATen checks each dim from the last (the highest leading -1 is named); a negative leading size is
# c10's checked numel
_EXPAND_RNG = random.Random(5)
EXPAND_CASES = []
for _ in range(120):
    shape = tuple(_EXPAND_RNG.choice([1, 2, 3]) for _ in range(_EXPAND_RNG.randint(0, 3)))
    sizes = [_EXPAND_RNG.choice([-1, -1, -2, 1, 2, 3, 4]) for _ in range(_EXPAND_RNG.randint(len(shape), len(shape) + 3))]
    EXPAND_CASES.append(f"r = torch.ones({shape}).expand({', '.join(map(str, sizes))})")


@pytest.mark.parametrize("code", sorted(set(EXPAND_CASES)))
def test_expand_checks(code):
    check(code)


# ------------------------------------------------------------------------------------------ dtypes kernels refuse

_DTYPES = ["complex64", "complex128", "int64", "int32", "bool", "float16", "float64"]
_LOSSES = ["F.nll_loss(a.reshape(2, 2), torch.tensor([0, 1]))", "F.mse_loss(a, b)", "F.huber_loss(a, b)",
           "F.smooth_l1_loss(a, b)", "F.l1_loss(a, b)", "F.binary_cross_entropy(a.abs() / 4, b.abs() / 4)",
           "F.binary_cross_entropy_with_logits(a, b)", "F.kl_div(a, b, reduction='sum')", "F.dropout(a, 0.5)",
           "nn.Dropout()(a)", "F.max_pool1d(a.reshape(1, 1, 4), 2)", "F.max_pool2d(a.reshape(1, 1, 2, 2), 2)",
           "F.avg_pool1d(a.reshape(1, 1, 4), 2)", "torch.cumprod(a, 0, dtype=torch.bool)",
           "a.cumprod(0, dtype=torch.bool)", "F.soft_margin_loss(a, b)", "F.hinge_embedding_loss(a, b)"]
DTYPE_CASES = [f"a = torch.tensor([0.5, -1.5, 2.0, 0.25]).to(torch.{d}); b = torch.tensor([1.0, 0.0, 0.5, 2.0])"
               f".to(torch.{e}); r = {loss}"
               for loss in _LOSSES for d in _DTYPES for e in (d, "float32")]


@pytest.mark.parametrize("code", DTYPE_CASES)
def test_dtypes_kernels_refuse(code):
    check(code)


# zero dilation: the slow kernels' words (1-d named as 2-d), oneDNN's for a float batch, before the dtypes' check
CONV_CASES = [f"x = torch.randn({n}, 3, {', '.join(['5'] * d)}).to(torch.{xd}); "
              f"w = torch.randn({'3, 2' if t else '2, 3'}, {', '.join(['3'] * d)}).to(torch.{wd}); "
              f"r = F.conv{'_transpose' if t else ''}{d}d(x, w, dilation={dil})"
              for d in (1, 2, 3) for t in (False, True) for n in (1, 2)
              for xd, wd in (("float32", "float32"), ("float64", "float64"), ("float64", "float32"))
              for dil in ("0", "(1,) * %d" % (d - 1) + " + (0,)" if d > 1 else "0", "-1")]


@pytest.mark.parametrize("code", CONV_CASES)
def test_conv_zero_dilation(code):
    check(code)


# binary_cross_entropy checks each element's input, then its target: the first bad element speaks
_BCE_RNG = random.Random(3)
BCE_CASES = []
for _ in range(60):
    n = _BCE_RNG.randint(1, 5)
    xs = [_BCE_RNG.choice([0.5, 0.25, 1.5, -0.5, 0.0, 1.0]) for _ in range(n)]
    ys = [_BCE_RNG.choice([0.5, 1.0, 2.0, -1.0, 0.0]) for _ in range(n)]
    BCE_CASES.append(f"r = F.binary_cross_entropy(torch.tensor({xs}), torch.tensor({ys}))")


@pytest.mark.parametrize("code", BCE_CASES)
def test_bce_check_order(code):
    check(code)


CHANNELS_LAST_CASES = [f"x = torch.ones({', '.join(['2'] * nd)}); r = {form}"
                       for nd in (1, 2, 3, 5)
                       for form in ("x.to(memory_format=torch.channels_last)",
                                    "x.to(torch.float64, memory_format=torch.channels_last)",
                                    "torch.empty_like(x, memory_format=torch.channels_last)",
                                    "torch.zeros_like(x, memory_format=torch.channels_last)",
                                    "torch.ones_like(x, memory_format=torch.channels_last)",
                                    "torch.full_like(x, 2.0, memory_format=torch.channels_last)",
                                    "torch.rand_like(x, memory_format=torch.channels_last)",
                                    "torch.randn_like(x, memory_format=torch.channels_last)",
                                    "torch.empty(x.shape, memory_format=torch.channels_last)",
                                    "x.clone(memory_format=torch.channels_last)",
                                    "x.contiguous(memory_format=torch.channels_last)")]


@pytest.mark.parametrize("code", CHANNELS_LAST_CASES)
def test_channels_last_rank(code):
    check(code)


# cdist: torch/functional.py's parser first (p='a'), then the dims, the columns, floating dtypes, p, Half, the pair;
# cosine_similarity: the common dtype (no complex), then eps; allclose's broadcast; conv's complex paths;
# F.glu and F.margin_ranking_loss read their inputs in Python first (an AttributeError for a non-tensor)
_PAIRS = [("torch.ones(2, 3)", "torch.ones(2, 3)"), ("torch.ones(2, 3)", "torch.ones(2, 4)"), ("torch.ones(3)", "torch.ones(2, 3)"),
          ("torch.ones(2, 2, 3)", "torch.ones(3, 2, 3)")]
ORDER_CASES = [f"r = torch.cdist({a}.to(torch.{d1}), {b}.to(torch.{d2}){p})"
               for a, b in _PAIRS for d1, d2 in (("float32", "float32"), ("int64", "int64"), ("float16", "float16"),
                                                 ("float16", "float32"), ("float32", "float64"), ("complex64", "complex64"),
                                                 ("bool", "float32"))
               for p in ("", ", p=-1", ", p='a'", ", p=np.array([1.0, 2.0])", ", p=True")]
ORDER_CASES += [f"r = F.cosine_similarity({a}.to(torch.{d1}), {b}.to(torch.{d2}){e})"
                for a, b in _PAIRS[:2] for d1, d2 in (("float32", "float32"), ("int64", "int64"), ("int64", "float32"),
                                                      ("complex64", "float32"), ("float16", "float64"))
                for e in ("", ", eps=-1", ", eps=-0.5", ", dim=5, eps=-1", ", eps=True")]
ORDER_CASES += [f"r = torch.allclose({a}, {b}{x})" for a, b in _PAIRS for x in ("", ".double()", ".long()")]
ORDER_CASES += [f"r = F.conv{k}d(torch.randn({n}, 2, {', '.join(['4'] * k)}).to(torch.{d1}), "
                f"torch.randn(1, 2, {', '.join(['2'] * k)}).to(torch.{d2}))"
                for k in (1, 2, 3) for n in (1, 2) for d1, d2 in itertools.permutations(
                    ("float32", "float64", "complex64", "complex128", "int64"), 2)]
# (oneDNN's path, whose checks have their own words: groups, a kernel over 3x3, a batch, or a large input)
ORDER_CASES += [f"r = F.conv{k}d(torch.randn({n}, 2, {', '.join([str(size)] * k)}), "
                f"torch.randn({2 if g == 2 else 1}, {2 // g}, {', '.join([str(kw)] * k)}){w}, groups={g}{d})"
                for k in (1, 2, 3) for n in (1, 2) for g in (1, 2) for kw in (2, 4) for size in (6, 40)
                for w, d in ((".double()", ""), ("", ", dilation=0"))
                if size ** k * 2 * n < 300000]
# (a 1x1 kernel's path depends on the number of threads: the same count in both libraries)
ORDER_CASES += [f"n = torch.get_num_threads(); torch.set_num_threads({t})\ntry:\n    r = F.conv{k}d(torch.randn(1, 2, "
                f"{', '.join(['6'] * k)}), torch.randn(2, 1, {', '.join(['1'] * k)}).double(), groups=2{x})\n"
                "finally:\n    torch.set_num_threads(n)"
                for t in (1, 2) for k in (1, 2) for x in ("", ", stride=2", ", dilation=0")]
ORDER_CASES += [f"r = F.glu({v})" for v in _WRONG] + [
    f"r = F.margin_ranking_loss({a}, {b}, {c})" for a, b, c in itertools.product(
        ("torch.ones(2, 1)", "1.5"), ("torch.ones(2, 1)", "torch.ones(2)", "'a'"), ("torch.ones(2, 3, 4)", "2", "None"))]


@pytest.mark.parametrize("code", ORDER_CASES)
def test_check_order(code):
    check(code)
