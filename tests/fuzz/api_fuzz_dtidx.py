"""More generated calls for the differential fuzzer: dtypes, values and indexing, written as an independent
author of a differential check would write them (issue 14), rather than from gradlab's own signatures.

- dtypes: every pair of dtypes (incl. complex) through binary functions and operators, with Python and numpy
  scalars and 0-d tensors on either side (PyTorch's promotion categories); in-place results that cannot be cast
  back; `result_type` / `promote_types` / `can_cast`; creation from mixed lists, numpy arrays and scalars of each
  dtype; conversions of out-of-range, nan and inf values; uint8 wraparound; integer division by zero; int64
  values near 2**63.
- values: reductions on int, bool, float, empty and 0-d inputs; ties (which index wins) and nan in
  max/min/sort/topk/median/mode/kthvalue; creation functions and matrix builders; clamp with mixed bounds.
- indexing: getitem/setitem mixing ints, slices with steps, Ellipsis, None, bool masks, index tensors of
  several dtypes, lists and numpy arrays (where advanced dims go), out-of-range errors, setitem of other dtypes
  and of tensors requiring grad, and the index functions (index_select, gather, scatter, index_add, take, ...)
  with wrong dtypes and out-of-range indices.
Same Case format and rules as api_fuzz_cases: fixed seeds, nothing here knows an answer.
"""
import math
import random

from api_fuzz_cases import Case, _lit

ALL = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64", "complex64",
       "complex128"]
REAL = ALL[:9]
INTS = ["uint8", "int8", "int16", "int32", "int64"]
FLOATS = ["float16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]
SHAPES = [(), (3,), (2, 3), (1, 3), (3, 1), (0,), (2, 1, 3)]


def _num(rng, dtype, special=0.1):
    """One element value of this dtype (as Python source), small, with zeros and negatives often."""
    if dtype == "bool":
        return rng.choice(["True", "False"])
    if dtype == "uint8":
        return str(rng.choice([0, 1, 2, 3, 5, 7, 200, 255]))
    if dtype in INTS:
        return str(rng.choice([0, 1, -1, 2, -3, 5, -7, 9]))
    if dtype in COMPLEX:
        re_, im = rng.choice([0.0, 1.0, -1.5, 2.0, 0.5]), rng.choice([0.0, 1.0, -2.0, 0.25])
        if rng.random() < special:
            re_ = rng.choice([math.nan, math.inf])
        return f"complex({_lit(re_)}, {_lit(im)})"
    if rng.random() < special:
        return _lit(rng.choice([math.nan, math.inf, -math.inf, -0.0]))
    return _lit(rng.choice([0.0, 1.0, -1.0, 2.5, -3.5, 0.5, 7.0, -2.0, 1.25]))


def _nested(rng, dtype, shape, special):
    if not shape:
        return _num(rng, dtype, special)
    return "[" + ", ".join(_nested(rng, dtype, shape[1:], special) for _ in range(shape[0])) + "]"


def tens(rng, dtype, shape, special=0.1, grad=False):
    rg = ", requires_grad=True" if grad else ""
    if 0 in shape:
        return f"torch.zeros({', '.join(map(str, shape))}, dtype=torch.{dtype}{rg})"
    return f"torch.tensor({_nested(rng, dtype, shape, special)}, dtype=torch.{dtype}{rg})"


def scalar(rng, kind=None):
    """A Python or numpy scalar, or a 0-d tensor: the operand kinds that promotion treats differently."""
    kind = kind or rng.choice(["bool", "int", "float", "complex", "np", "zerodim"])
    if kind == "bool":
        return rng.choice(["True", "False"])
    if kind == "int":
        return rng.choice(["0", "1", "-2", "3", "7", "300", "-129", "2 ** 31", "255"])
    if kind == "float":
        return rng.choice(["0.0", "1.5", "-2.5", "0.1", "1e10", "float('nan')", "float('inf')", "-0.0", "3.0"])
    if kind == "complex":
        return rng.choice(["1j", "(1+2j)", "complex(0.5, -1)", "0j"])
    if kind == "np":
        return rng.choice(["np.float32(1.5)", "np.float64(-2.0)", "np.int64(3)", "np.int32(-2)", "np.uint8(200)",
                           "np.bool_(True)", "np.float16(0.5)", "np.int8(-5)", "np.complex64(1j)"])
    d = rng.choice(ALL)
    return f"torch.tensor({_num(rng, d, 0.05)}, dtype=torch.{d})"


# --- dtypes ---------------------------------------------------------------------------------------

BIN_OPS = ["+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "==", "!=", "<", "<=", ">", ">="]
BIN_FUNCS = ["add", "sub", "mul", "div", "true_divide", "remainder", "fmod", "pow", "atan2", "hypot", "maximum",
             "minimum", "max", "min", "eq", "ne", "lt", "le", "gt", "ge", "bitwise_and", "bitwise_or", "bitwise_xor",
             "logical_and", "logical_or", "logical_xor", "isclose", "lerp", "where", "dist"]


def _complex_text(text):
    return "complex" in text or "j" in text.replace("torch.", "")


def _operand(rng, shape, first=None):
    """The second operand: a tensor of any dtype (same, broadcast or 0-d shape) or a scalar of any kind. With a
    float16 first operand, never a complex one: PyTorch computes those in complex32, which gradlab does not have
    (numpy has no such dtype)."""
    while True:
        other = _any_operand(rng, shape)
        if first != "float16" or not _complex_text(other[0]):
            return other


def _any_operand(rng, shape):
    r = rng.random()
    if r < 0.5:
        d = rng.choice(ALL)
        s = rng.choice([shape, shape, (), (1,), shape[-1:]])
        return tens(rng, d, s), d
    return scalar(rng), None


def gen_pairs(rng):
    """Two operands of any two dtypes through an operator or a binary function: dtype, values, errors."""
    d1 = rng.choice(ALL)
    shape = rng.choice(SHAPES)
    lines = [f"a = {tens(rng, d1, shape)}"]
    other, _ = _operand(rng, shape, d1)
    r = rng.random()
    if r < 0.35:
        op = rng.choice(BIN_OPS)
        return Case("dtidx-dtypes", "\n".join(lines + [f"a {op} {other}"]), f"pair:a{op}x")
    if r < 0.55:
        op = rng.choice(BIN_OPS)
        if other.startswith("torch.tensor") and rng.random() < 0.5:  # 0-d tensor on the left of a tensor
            return Case("dtidx-dtypes", "\n".join(lines + [f"{other} {op} a"]), f"pair:t{op}a")
        left = scalar(rng)
        while d1 == "float16" and _complex_text(left):
            left = scalar(rng)
        return Case("dtidx-dtypes", "\n".join(lines + [f"{left} {op} a"]), f"pair:x{op}a")
    name = rng.choice(BIN_FUNCS)
    if name == "lerp":
        expr = f"torch.lerp(a, {other}, {rng.choice(['0.5', '2', 'a'])})"
    elif name == "where":
        expr = f"torch.where(a != 0, a, {other})"
    elif name == "isclose":
        expr = f"torch.isclose(a, {other})"
    else:
        expr = rng.choice([f"torch.{name}(a, {other})", f"a.{name}({other})"])
    return Case("dtidx-dtypes", "\n".join(lines + [expr]), f"pair-fn:{name}")


INPLACE = ["add_", "sub_", "mul_", "div_", "remainder_", "fmod_", "pow_", "atan2_", "hypot_", "bitwise_and_",
           "logical_and_", "clamp_", "copy_", "lerp_", "fill_", "masked_fill_"]
IOPS = ["+=", "-=", "*=", "/=", "//=", "%=", "**=", "&=", "|=", "^="]


def gen_inplace(rng):
    """In-place ops whose result dtype may not cast back to the receiver's dtype."""
    d1 = rng.choice(ALL)
    shape = rng.choice([(3,), (2, 3), ()])
    lines = [f"a = {tens(rng, d1, shape, 0.05)}"]
    other, _ = _operand(rng, shape, d1)
    if rng.random() < 0.5:
        op = rng.choice(IOPS)
        return Case("dtidx-dtypes", "\n".join(lines + [f"a {op} {other}", "a"]), f"inplace:{op}")
    name = rng.choice(INPLACE)
    if name == "clamp_":
        expr = f"a.clamp_({other})"
    elif name == "lerp_":
        expr = f"a.lerp_({other}, 0.5)"
    elif name == "masked_fill_":
        expr = f"a.masked_fill_(a != 0, {other})"
    elif name == "fill_":
        expr = f"a.fill_({scalar(rng)})"
    else:
        expr = f"a.{name}({other})"
    return Case("dtidx-dtypes", "\n".join(lines + [expr]), f"inplace-fn:{name}")


def gen_promotion_api(rng):
    """promote_types, result_type and can_cast over every pair of dtypes and operand kinds."""
    d1, d2 = rng.choice(ALL), rng.choice(ALL)
    r = rng.random()
    if r < 0.3:
        return Case("dtidx-dtypes", f"torch.promote_types(torch.{d1}, torch.{d2})", "promote_types")
    if r < 0.5:
        return Case("dtidx-dtypes", f"torch.can_cast(torch.{d1}, torch.{d2})", "can_cast")
    while True:
        a = rng.choice([tens(rng, d1, (2,)), f"torch.tensor({_num(rng, d1)}, dtype=torch.{d1})", scalar(rng)])
        b = rng.choice([tens(rng, d2, (2,)), f"torch.tensor({_num(rng, d2)}, dtype=torch.{d2})", scalar(rng)])
        if not ("float16" in a + b and _complex_text(a + b)):      # (complex32: see _operand)
            break
    return Case("dtidx-dtypes", f"torch.result_type({a}, {b})", "result_type")


NP_DTYPES = ["bool_", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64", "complex64",
             "complex128"]


def gen_creation(rng):
    """torch.tensor / as_tensor / from_numpy / zeros / full / arange with dtype=, from mixed data."""
    r = rng.random()
    if r < 0.35:
        items = [rng.choice(["1", "2.5", "True", "-3", "1j", "np.float32(1.5)", "np.int64(2)", "np.uint8(7)",
                             "np.bool_(False)", "torch.tensor(3)", "torch.tensor(1.5)", "np.float16(2)",
                             "torch.tensor(True)", "np.complex128(2j)", "float('nan')", "-0.0"])
                 for _ in range(rng.randint(1, 3))]
        data = "[" + ", ".join(items) + "]"
        if rng.random() < 0.3:
            data = f"[{data}, {data}]"
        kw = rng.choice(["", "", ", dtype=torch." + rng.choice(ALL)])
        return Case("dtidx-dtypes", f"torch.{rng.choice(['tensor', 'as_tensor'])}({data}{kw})", "create:mixed-list")
    if r < 0.6:
        nd = rng.choice(NP_DTYPES)
        vals = rng.choice(["[1, 0, 2]", "[[1, 2], [3, 4]]", "[]", "5", "[-1, 200]", "[1.5, -2.5]"])
        arr = f"np.array({vals}, dtype=np.{nd})"
        fn = rng.choice(["torch.tensor({})", "torch.as_tensor({})", "torch.from_numpy({})",
                         "torch.tensor({}, dtype=torch.%s)" % rng.choice(ALL),
                         "torch.as_tensor({}, dtype=torch.%s)" % rng.choice(ALL), "torch.tensor([1.5]) * {}",
                         "torch.tensor([3], dtype=torch.uint8) + {}"])
        return Case("dtidx-dtypes", fn.format(arr), "create:numpy")
    if r < 0.75:
        nd = rng.choice(NP_DTYPES)
        v = rng.choice(["1", "0", "3", "-1", "2.5"])
        if nd in ("uint8",) and v.startswith("-"):
            v = "1"
        sc = f"np.{nd}({v})"
        form = rng.choice([f"torch.tensor({sc})", f"torch.tensor([{sc}, {sc}])", f"torch.as_tensor({sc})",
                           f"torch.ones(2, dtype=torch.{rng.choice(ALL)}) * {sc}", f"torch.full((2,), {sc})",
                           f"torch.tensor([1, 2]) + {sc}", f"{sc} + torch.tensor([1.5])"])
        return Case("dtidx-dtypes", form, "create:numpy-scalar")
    dt = rng.choice(ALL)
    fn = rng.choice(["zeros(2, {kw})", "ones((2, 1), {kw})", "full((2,), {v}, {kw})", "full((2,), {v})",
                     "arange({a}, {kw})", "arange({a})", "linspace(0, {v}, 4, {kw})", "eye(2, 3, {kw})",
                     "zeros_like(torch.ones(2), {kw})", "full_like(torch.ones(2, dtype=torch.int32), {v})",
                     "full_like(torch.ones(2), {v}, {kw})", "empty(0, {kw})", "logspace(0, 2, 3, {kw})"])
    v = rng.choice(["1.5", "2", "True", "-1", "1j", "300", "float('nan')", "np.float32(2.5)", "torch.tensor(3)"])
    a = rng.choice(["5", "0, 3, 0.5", "1.5, 4", "-2, 3, 2", "3, 0, -1", "torch.tensor(4)", "np.int64(3)", "0, 1, 0.1"])
    return Case("dtidx-dtypes", "torch." + fn.format(kw=f"dtype=torch.{dt}", v=v, a=a), f"create:{fn.split('(')[0]}")


CONV_VALUES = ["300.7", "-1.5", "-129.0", "255.9", "256.0", "float('nan')", "float('inf')", "-float('inf')", "1e10",
               "-1e10", "2.0 ** 31", "-2.0 ** 31", "2.0 ** 63", "65504.0", "70000.0", "1e-8", "-0.0", "0.5", "-0.5",
               "127.5", "-128.9", "32768.0", "1e39"]


def gen_convert(rng):
    """Conversions of out-of-range, nan, inf and fractional values between dtypes."""
    src = rng.choice(["float32", "float64", "float16", "int64", "int32", "int16", "complex64"])
    if src in ("int64", "int32", "int16"):
        vals = rng.sample(["300", "-1", "-129", "255", "256", "65535", "-32769", "2 ** 31 - 1", "-2 ** 31",
                           "2 ** 40 + 1", "2 ** 62", "-2 ** 63", "2 ** 63 - 1", "0", "128", "-128"], 3)
        if src != "int64":
            vals = [v for v in vals if "2 **" not in v or "31" in v and src == "int32"] or ["1"]
    elif src == "float16":
        vals = rng.sample(["300.7", "-1.5", "-129.0", "255.9", "256.0", "float('nan')", "float('inf')", "65504.0",
                           "0.5", "-0.5", "127.5"], 3)
    elif src == "complex64":
        vals = rng.sample(["complex(1.5, 2)", "complex(-1.5, 0)", "complex(float('nan'), 1)", "300.5j", "complex(256, 1)"], 2)
    else:
        vals = rng.sample(CONV_VALUES, 3)
    lines = [f"a = torch.tensor([{', '.join(vals)}], dtype=torch.{src})"]
    dst = rng.choice(ALL)
    method = {"uint8": "byte", "int8": "char", "int16": "short", "int32": "int", "int64": "long", "float16": "half",
              "float32": "float", "float64": "double", "bool": "bool"}.get(dst)
    forms = [f"a.to(torch.{dst})", f"a.type(torch.{dst})", f"torch.tensor([{', '.join(vals)}], dtype=torch.{dst})",
             f"a.to(torch.{dst}).tolist()"]
    if method:
        forms.append(f"a.{method}()")
    return Case("dtidx-dtypes", "\n".join(lines + [rng.choice(forms)]), f"convert:{src}->{dst}")


def gen_int_arith(rng):
    """Integer arithmetic: wraparound, division and modulo by zero and of negatives, int64 near 2**63."""
    d = rng.choice(INTS + ["bool"])
    r = rng.random()
    if d == "uint8":
        vals = "[0, 1, 200, 255]"
    elif d == "bool":
        vals = "[True, False, True, False]"
    elif d == "int8":
        vals = "[-128, 127, -7, 5]"
    elif d == "int64" and r < 0.3:
        vals = rng.choice(["[2 ** 63 - 1, -2 ** 63, 2 ** 62, -1]", "[9007199254740993, -9007199254740993, 1, 0]"])
    else:
        vals = "[-7, 7, 0, 3]"
    lines = [f"a = torch.tensor({vals}, dtype=torch.{d})"]
    op = rng.choice(["a + 100", "a - 1", "a * 3", "-a", "a * a", "a // 0", "a % 0", "a // -2", "a % -3", "a / 0",
                     "torch.div(a, 0, rounding_mode='floor')", "torch.div(a, -2, rounding_mode='trunc')",
                     "torch.div(a, 2, rounding_mode='floor')", "torch.fmod(a, -3)", "torch.remainder(a, -3)",
                     "torch.fmod(a, 0)", "torch.remainder(a, 0)", "a // torch.tensor([1, 0, 2, -3])",
                     "a % torch.tensor([2, -2, 1, 3])", "a ** 2", "a ** -1", "2 ** a", "a ** 0", "abs(a)",
                     "a.sum()", "a.prod()", "a.cumsum(0)", "a + 2 ** 62", "a * 2 ** 40", "a + 1.5", "a - True",
                     "a << 1" if False else "a & 3", "~a", "a.abs()", "a.neg()", "a.sign()", "a.float()",
                     "a.double() + 1", "a.mean()", "a.sum(dtype=torch.uint8)", "torch.tensor(2 ** 63)",
                     "torch.tensor([2 ** 64])", "torch.tensor(-2 ** 63 - 1)", "torch.full((2,), 2 ** 63, dtype=torch.int64)",
                     "a.fill_(300)", "a + 2 ** 64", "a.clamp(-1000, 1000)", "a // 1.5", "a % 2.5", "-7 // a",
                     "-7 % a", "a.max()", "a.argmax()", "torch.tensor([1, 2], dtype=torch.uint8) - 3"])
    return Case("dtidx-dtypes", "\n".join(lines + [op]), f"int-arith:{op.split('(')[0][:14]}")


# --- values ---------------------------------------------------------------------------------------

RED = ["sum", "prod", "mean", "std", "var", "median", "nanmedian", "mode", "kthvalue", "topk", "sort", "argsort",
       "cumsum", "cumprod", "logsumexp", "amax", "amin", "aminmax", "norm", "max", "min", "argmax", "argmin",
       "cummax", "cummin", "all", "any", "count_nonzero", "nansum", "nanmean", "msort", "unique", "std_mean"]


def _red_args(rng, name, nd):
    dim = rng.choice(range(-nd, nd)) if nd else rng.choice([0, -1])
    dimopt = rng.random() < 0.7
    if name == "kthvalue":
        return [str(rng.choice([1, 2, 3])), str(dim)] if dimopt else ["1"]
    if name == "topk":
        out = [str(rng.choice([1, 2, 0, 3])), f"dim={dim}"] if dimopt else ["1"]
        if rng.random() < 0.4:
            out.append(f"largest={rng.choice(['True', 'False'])}")
        if rng.random() < 0.3:
            out.append("sorted=True")
        return out
    if name in ("sort", "argsort"):
        out = [f"dim={dim}"] if dimopt else []
        if rng.random() < 0.4:
            out.append("descending=True")
        if rng.random() < 0.4:
            out.append(f"stable={rng.choice(['True', 'False'])}")
        return out
    if name in ("cumsum", "cumprod", "cummax", "cummin", "logsumexp"):
        out = [str(dim)]
        if name in ("cumsum", "cumprod") and rng.random() < 0.3:
            out.append(f"dtype=torch.{rng.choice(['float64', 'int64', 'float16', 'int32'])}")
        return out
    if name == "norm":
        p = rng.choice(["1", "2", "float('inf')", "-float('inf')", "0", "3", "0.5", "'fro'", "'nuc'"])
        out = [f"p={p}"]
        if dimopt:
            out.append(f"dim={dim}")
        if rng.random() < 0.3:
            out.append("keepdim=True")
        if rng.random() < 0.2:
            out.append("dtype=torch.float64")
        return out
    if name in ("msort", "unique"):
        return [rng.choice(["", "sorted=True", "return_counts=True", "return_inverse=True"])] if name == "unique" else []
    out = []
    if dimopt:
        out.append(rng.choice([str(dim), f"dim={dim}", f"dim=({dim},)"] if name in ("sum", "mean", "amax", "amin",
                   "std", "var", "nansum", "nanmean", "count_nonzero", "std_mean") else [str(dim), f"dim={dim}"]))
        if rng.random() < 0.4 and name not in ("count_nonzero",):
            out.append("keepdim=True")
    if name in ("sum", "prod", "mean", "nansum", "nanmean") and rng.random() < 0.3:
        out.append(f"dtype=torch.{rng.choice(['float64', 'int64', 'float32', 'int8', 'bool', 'float16'])}")
    if name in ("std", "var", "std_mean") and rng.random() < 0.4:
        out.append(f"correction={rng.choice(['0', '2', '1'])}" if rng.random() < 0.6 else "unbiased=False")
    return out


def gen_reductions(rng):
    """Reductions on int, bool, float, empty and 0-d inputs, with ties and nan often."""
    d = rng.choice(["float32", "float32", "float64", "int64", "int32", "uint8", "bool", "float16", "int8"])
    shape = rng.choice([(), (5,), (2, 3), (3, 2), (0,), (2, 0), (1,), (2, 2, 2)])
    # few distinct values, so that ties are common
    if 0 in shape:
        src = f"torch.zeros({', '.join(map(str, shape))}, dtype=torch.{d})"
    else:
        pool = {"bool": ["True", "False"], "uint8": ["0", "1", "3", "3"]}.get(d, ["1", "-2", "3", "1", "0"])
        if d in FLOATS:
            pool = ["1.0", "-2.0", "3.5", "1.0", "0.0"] + (["float('nan')"] if rng.random() < 0.35 else []) + \
                (["float('inf')", "-float('inf')"] if rng.random() < 0.15 else [])

        def nest(s):
            return rng.choice(pool) if not s else "[" + ", ".join(nest(s[1:]) for _ in range(s[0])) + "]"
        src = f"torch.tensor({nest(shape)}, dtype=torch.{d})"
    name = rng.choice(RED)
    args = [x for x in _red_args(rng, name, len(shape)) if x]
    a = ", ".join(args)
    expr = rng.choice([f"a.{name}({a})", f"torch.{name}(a{', ' if a else ''}{a})"])
    return Case("dtidx-values", f"a = {src}\n{expr}", f"reduce:{name}")


def gen_creation_values(rng):
    """Creation functions and matrix builders: values, dtype and errors."""
    fn = rng.choice([
        "torch.arange({a})", "torch.arange({a}, dtype=torch.{d})", "torch.linspace({s}, {e}, {n})",
        "torch.linspace({s}, {e}, {n}, dtype=torch.{d})", "torch.logspace({s}, {e}, {n}, base={b})",
        "torch.eye({n})", "torch.eye({n}, {m}, dtype=torch.{d})", "torch.full(({n}, 2), {v})",
        "torch.zeros_like(x)", "torch.ones_like(x, dtype=torch.{d})", "torch.full_like(x, {v})",
        "torch.tril(x, {k})", "torch.triu(x, {k})", "torch.diag(x, {k})", "torch.diag(v)", "torch.diag(v, {k})",
        "torch.diag_embed(v)", "torch.diagonal(x, {k})", "torch.meshgrid(v, w, indexing={ix})",
        "torch.meshgrid(v, w)", "torch.cartesian_prod(v, w)", "torch.tril_indices({n}, {m}, {k})",
        "torch.triu_indices({n}, {m}, {k})", "torch.vander(v)", "torch.trace(x)", "torch.flip(x, ({k0},))",
        "torch.roll(x, {k}, 0)", "torch.rot90(x, {k})", "torch.outer(v, w)", "torch.kron(v, w)",
        "torch.empty_like(x).shape", "torch.heaviside(v, w)", "torch.histc(v.float(), bins={n})",
        "torch.bincount(v.long().abs())", "torch.searchsorted(torch.tensor([1, 2, 3]), v)",
        "torch.bucketize(v, torch.tensor([0, 2]))", "torch.atleast_2d(v)", "torch.block_diag(x, v.reshape(1, -1))",
        "torch.cdist(x.double(), x.double())", "torch.combinations(v)", "torch.tensordot(x, x.t(), dims=1)"])
    d = rng.choice(["float32", "float64", "int64", "int32", "uint8", "bool", "float16", "int16"])
    xd = rng.choice(["float32", "int64", "bool", "float64", "uint8"])
    xs = rng.choice([(2, 3), (3, 3), (3, 2), (1, 4), (0, 2), (2, 2)])
    lines = [f"x = {tens(rng, xd, xs, 0.05)}", f"v = {tens(rng, rng.choice(['float32', 'int64', 'float64']), (3,), 0.0)}",
             f"w = {tens(rng, rng.choice(['float32', 'int64', 'int32']), rng.choice([(2,), (3,), (0,)]), 0.0)}"]
    expr = fn.format(a=rng.choice(["5", "0, 1, 0.2", "1, 2.5, 0.5", "10, 0, -3", "0", "-3.5", "0, 5, 0", "1, 0",
                                   "0.1, 0.5, 0.1", "torch.tensor(3.)", "2 ** 60, 2 ** 60 + 3"]),
                     d=d, s=rng.choice(["0", "-1", "1.5", "torch.tensor(0.)", "2"]), e=rng.choice(["1", "10", "-2", "0"]),
                     n=rng.choice([0, 1, 2, 3, 5, -1]), m=rng.choice([0, 1, 2, 4]), b=rng.choice(["2", "10", "0.5"]),
                     v=rng.choice(["1.5", "2", "True", "float('nan')", "1j", "-7"]), k=rng.choice([0, 1, -1, 2, -3, 5]),
                     k0=rng.choice([0, 1, -1]), ix=rng.choice(["'ij'", "'xy'", "'xx'"]))
    return Case("dtidx-values", "\n".join(lines + [expr]), f"build:{fn.split('(')[0][6:]}")


def gen_clamp(rng):
    """clamp/clip with int/float/bool/tensor/None bounds, min above max, nan bounds, int tensors with float bounds."""
    d = rng.choice(["float32", "float64", "int64", "int32", "uint8", "bool", "float16", "int8"])
    lines = [f"a = {tens(rng, d, rng.choice([(4,), (2, 3), ()]), 0.15)}"]
    bound = lambda: rng.choice(["None", "0", "1", "-1", "0.5", "-2.5", "True", "float('nan')", "300",  # noqa: E731
                                "torch.tensor(1.5)", "torch.tensor(2)", "torch.tensor([0., 1., 2., 3.])",
                                "torch.tensor([0, 1, 2, 3], dtype=torch.int32)", "np.float64(1.5)"])
    lo, hi = bound(), bound()
    form = rng.choice([f"a.clamp({lo}, {hi})", f"torch.clamp(a, min={lo})", f"torch.clamp(a, max={hi})",
                       f"torch.clip(a, {lo}, {hi})", f"a.clamp(min={lo}, max={hi})", f"a.clamp_min({lo})",
                       f"a.clamp_max({hi})", f"a.clone().clamp_({lo}, {hi})", f"torch.clamp(a)"])
    return Case("dtidx-values", "\n".join(lines + [form]), f"clamp:{form.split('(')[0].split('.')[-1]}")


# --- indexing -------------------------------------------------------------------------------------

def _one_index(rng, size, pos):
    c = rng.random()
    if c < 0.2:
        return str(rng.randint(-size - 1, size))
    if c < 0.38:
        a = rng.choice(["", "0", "1", "-1", "-3", str(size + 2)])
        b = rng.choice(["", "2", "-1", "-2", "100"])
        st = rng.choice(["", ":2", ":3", ":-1", ":1"])
        return f"{a}:{b}{st}"
    if c < 0.44:
        return "None"
    if c < 0.5:
        return "..."
    if c < 0.62:
        idx = [rng.randint(-size - (1 if rng.random() < 0.15 else 0), max(size - 1, 0) + (1 if rng.random() < 0.1 else 0))
               for _ in range(rng.randint(1, 3))] if size else [0]
        form = rng.choice(["list", "list", "int64", "int32", "uint8", "int16", "np", "nested", "tuple-list", "float"])
        if form == "list":
            return str(idx)
        if form == "nested":
            return f"[{idx}, {idx}]"
        if form == "np":
            return f"np.array({idx})"
        if form == "tuple-list":
            return f"torch.tensor([{idx}])"
        if form == "float":
            return f"torch.tensor({idx}, dtype=torch.float32)"
        return f"torch.tensor({idx}, dtype=torch.{form})"
    if c < 0.72:
        return rng.choice([f"torch.tensor({[rng.random() < 0.5 for _ in range(max(size, 1))]})",
                           f"{[rng.random() < 0.5 for _ in range(size)]}", "torch.tensor(True)", "torch.tensor(False)",
                           "True", "False", f"np.array({[rng.random() < 0.5 for _ in range(size)]})",
                           f"torch.tensor({[rng.random() < 0.5 for _ in range(size + 1)]})"])
    if c < 0.8:
        return rng.choice(["a > 0", "a != 0", "a[..., 0] > 0" if pos == 0 else ":"])
    if c < 0.86:
        return rng.choice(["torch.tensor(1)", "np.int64(-1)", "torch.tensor([[0], [1]])", "torch.tensor(-1)"])
    return ":"


def _index(rng, shape):
    parts, dim = [], 0
    for _ in range(rng.randint(1, len(shape) + 1)):
        size = shape[dim] if dim < len(shape) else 1
        p = _one_index(rng, size, len(parts))
        parts.append(p)
        if p != "None":
            dim += 1
    return ", ".join(parts)


def gen_getitem(rng):
    d = rng.choice(["float32", "int64", "bool", "uint8", "float64", "int32", "complex64"])
    shape = rng.choice([(4,), (3, 4), (2, 3, 4), (2, 1, 3), (0, 3), (3, 0), ()])
    grad = d in ("float32", "float64") and rng.random() < 0.4
    lines = [f"a = {tens(rng, d, shape, 0.05, grad)}"]
    idx = _index(rng, shape)
    return Case("dtidx-indexing", "\n".join(lines + [f"a[{idx}]"]), "getitem")


def gen_setitem(rng):
    d = rng.choice(["float32", "int64", "bool", "uint8", "float64", "int32", "float16"])
    shape = rng.choice([(4,), (3, 4), (2, 3, 4), (2, 1, 3), (0, 3), ()])
    grad = rng.random() < 0.35 and d in ("float32", "float64")
    lines = [f"a0 = {tens(rng, d, shape, 0.05, grad)}", "a = a0.clone()" if grad or rng.random() < 0.5 else "a = a0"]
    idx = _index(rng, shape)
    val = rng.choice(["0", "1.5", "-1", "True", "1j", "300", "float('nan')", "torch.tensor(2.5)", "torch.tensor(7)",
                      "torch.tensor([1., 2., 3., 4.])", "torch.tensor([[1], [2], [3]])", "[1, 2, 3, 4]",
                      "torch.ones(1, 4)", "torch.ones(2, 1, 1)", "np.float32(2)", "np.array([1, 2, 3, 4])",
                      "torch.tensor(3., requires_grad=True)", "torch.tensor([1., 2., 3., 4.], requires_grad=True)",
                      "torch.tensor([9, 8], dtype=torch.uint8)", "torch.zeros(0)", "torch.tensor(True)",
                      "torch.tensor(1.5, dtype=torch.float64)", "a[0] if a.dim() else a", "None"])
    tail = rng.choice(["a", "(a, a0)", "(a, a.grad_fn)"])
    return Case("dtidx-indexing", "\n".join(lines + [f"a[{idx}] = {val}", tail]), "setitem")


INDEX_FUNCS = [
    "torch.index_select(a, {dim}, {i})", "a.index_select({dim}, {i})", "torch.gather(a, {dim}, {j})",
    "a.gather({dim}, {j})", "a.scatter({dim}, {j}, {src})", "a.scatter({dim}, {j}, {s})", "a.scatter_add({dim}, {j}, {src})",
    "torch.scatter(a, {dim}, {j}, {src}, reduce={red})", "a.clone().scatter_({dim}, {j}, {s})",
    "a.clone().scatter_add_({dim}, {j}, {src})", "a.index_add({dim}, {i}, {src})", "a.index_add({dim}, {i}, {src}, alpha=2)",
    "a.index_copy({dim}, {i}, {src})", "a.clone().index_copy_({dim}, {i}, {src})", "a.clone().index_add_({dim}, {i}, {src})",
    "a.index_fill({dim}, {i}, {s})", "torch.index_put(a, ({i},), {src1})", "a.index_put(({i},), {src1}, accumulate=True)",
    "a.clone().index_put_(({i},), {src1})", "torch.masked_select(a, {m})", "a.masked_select({m})",
    "a.masked_scatter({m}, {src})", "a.masked_fill({m}, {s})", "torch.take(a, {i})", "a.take({i})",
    "torch.take_along_dim(a, {j}, {dim})", "torch.take_along_dim(a, {j})", "a.clone().put_({i}, {src1})",
    "a.clone().put_({i}, {src1}, accumulate=True)", "a.put({i}, {src1})", "torch.scatter_reduce(a, {dim}, {j}, {src}, {red2})",
    "torch.index_reduce(a, {dim}, {i}, {src}, {red2})", "torch.where({m})", "torch.nonzero(a)", "torch.argwhere(a)",
    "torch.nonzero(a, as_tuple=True)"]


def gen_index_funcs(rng):
    """The index functions with index tensors of several dtypes, shapes and ranges, and mismatched sources."""
    d = rng.choice(["float32", "float32", "float64", "int64", "int32", "bool", "uint8"])
    shape = rng.choice([(3, 4), (4,), (2, 3), (2, 2, 2), ()])
    grad = d.startswith("float") and rng.random() < 0.4
    nd = len(shape)
    lines = [f"a = {tens(rng, d, shape, 0.03, grad)}"]
    dim = rng.choice(list(range(-nd, nd)) or [0]) if rng.random() < 0.9 else rng.choice([nd, -nd - 1, "1.5"])
    size = shape[dim] if isinstance(dim, int) and -nd <= dim < nd else 1
    idt = rng.choice(["int64", "int64", "int64", "int32", "int16", "uint8", "float32", "bool"])
    hi = size - 1 + (3 if rng.random() < 0.15 else 0)
    lo = -size if rng.random() < 0.2 else 0
    n = rng.choice([1, 2, 3, 0])
    ivals = [rng.randint(lo, max(lo, hi)) for _ in range(n)]
    i = f"torch.tensor({ivals}, dtype=torch.{idt})" if idt != "bool" else f"torch.tensor({[v > 0 for v in ivals]})"
    if n == 0:
        i = f"torch.tensor([], dtype=torch.{idt})"
    if rng.random() < 0.1:
        i = rng.choice(["[0, 1]", "torch.tensor(1)", "torch.tensor([[0, 1]])", "np.array([0])"])
    # gather/scatter index: same ndim as a, smaller or equal sizes
    jshape = tuple(max(1, s - rng.choice([0, 0, 1])) if s else 1 for s in shape) if nd else ()
    if rng.random() < 0.1 and nd:
        jshape = jshape[:-1] or (2, 2)
    jmax = size - 1 + (2 if rng.random() < 0.12 else 0)

    def jnest(s):
        if not s:
            return str(rng.randint(-1 if rng.random() < 0.05 else 0, max(0, jmax)))
        return "[" + ", ".join(jnest(s[1:]) for _ in range(s[0])) + "]"
    j = f"torch.tensor({jnest(jshape)}, dtype=torch.{rng.choice(['int64', 'int64', 'int64', 'int32', 'float32'])})"
    sd = rng.choice([d, d, "float32", "float64", "int64"])
    ssrc = rng.choice([jshape, jshape, shape, (n,) + tuple(shape[1:]) if nd else (n,)])
    src = tens(rng, sd, ssrc, 0.0, grad and sd.startswith("float") and rng.random() < 0.5)
    src1 = tens(rng, sd, rng.choice([(n,), (1,), ()]), 0.0)
    m = rng.choice(["a > 0", "a != 0", "torch.tensor(True)", "(a > 0).int()", "torch.ones(2, dtype=torch.bool)",
                    "(a > 0)[..., :1]" if nd else "a > 0"])
    fn = rng.choice(INDEX_FUNCS)
    expr = fn.format(dim=dim, i=i, j=j, src=src, src1=src1, s=rng.choice(["1.5", "2", "True", "torch.tensor(3.)", "-1"]),
                     m=m, red=rng.choice(["'add'", "'multiply'", "'mean'"]),
                     red2=rng.choice(["'sum'", "'prod'", "'mean'", "'amax'", "'amin'"]))
    return Case("dtidx-indexing", "\n".join(lines + [expr]), f"index-fn:{fn.split('(')[0].split('.')[-1]}")


GENERATORS = {
    "pairs": (gen_pairs, 2200),
    "inplace": (gen_inplace, 700),
    "promotion-api": (gen_promotion_api, 300),
    "creation": (gen_creation, 600),
    "convert": (gen_convert, 600),
    "int-arith": (gen_int_arith, 500),
    "reductions": (gen_reductions, 1200),
    "creation-values": (gen_creation_values, 600),
    "clamp": (gen_clamp, 300),
    "getitem": (gen_getitem, 1000),
    "setitem": (gen_setitem, 800),
    "index-funcs": (gen_index_funcs, 1000),
}


def dtidx_cases(seed=14):
    """Every case of this module, deterministic: one Random per generator."""
    cases = []
    for key, (gen, count) in GENERATORS.items():
        rng = random.Random(f"{seed}:dtidx:{key}")
        cases.extend(gen(rng) for _ in range(count))
    return cases
