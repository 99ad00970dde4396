"""Generated autograd programs for the differential fuzzer (tests/fuzz/test_api_fuzz.py), written as an outside
check would write them: whole little graphs rather than one call at a time.

- `gen_graph`: 2-8 ops drawn from the public ops on two or three leaves (broadcasting, views, slices, in-place ops
  on non-leaves and on views of them, reductions with dims, matmul, indexing with int and bool tensors), then
  backward; the outcome holds the loss, every leaf's .grad, the grad_fn names along the graph (a next_functions
  walk), is_leaf / requires_grad / retains_grad of every node and the .grad of retained intermediates.
- `gen_saved`: an in-place change between forward and backward: which op saved which tensor (the version-counter
  error names the tensor, its producing node and both versions), backward twice (which nodes free what), and the
  saved tensors read back as `grad_fn._saved_*`.
- `gen_misuse`: the error paths: leaves and views of leaves changed in place, requires_grad_ on non-leaves,
  backward of non-scalars, wrong gradient shapes, tensors that do not require grad, autograd.grad's allow_unused /
  materialize_grads, integer grads, .numpy(), detach/detach_, assigning a .grad of the wrong shape/dtype/device.
- `gen_modes`: no_grad, enable_grad, set_grad_enabled (function, context, decorator), inference_mode and its
  tensors, is_grad_enabled / is_inference_mode_enabled, nested in every order.
- `gen_higher`: create_graph double backward through generated graphs, grad of grad, tensor hooks (changing the
  gradient, removed, on leaves and non-leaves), Module forward hooks, autograd.Function subclasses
  (save_for_backward, needs_input_grad, mark_dirty, mark_non_differentiable, once_differentiable,
  set_materialize_grads) and torch.autograd.functional (jacobian, hessian, vjp, jvp, hvp, vhp).
Same Case format and rules as api_fuzz_cases: fixed seeds, nothing here knows an answer.
"""
import random

from api_fuzz_cases import Case, literal

# The helpers every case may call (defined in the case's own code, so that both libraries run them).
# walk: the graph below a tensor as nested (name, [(input slot, subgraph), ...]); a node reached twice is
# expanded once more at most, and the whole walk stops after 40 nodes (a diamond must not explode).
HELPERS = '''def walk(t, limit=[0]):
    limit[0] = 0
    def go(f, depth):
        if f is None:
            return None
        limit[0] += 1
        if limit[0] > 40 or depth > 12:
            return type(f).__name__
        return (type(f).__name__, [(i, go(g, depth + 1)) for g, i in f.next_functions])
    return go(t.grad_fn if hasattr(t, 'grad_fn') else t, 0)
def meta(t):
    return (t.is_leaf, t.requires_grad, t.retains_grad, None if t.grad_fn is None else type(t.grad_fn).__name__)'''

def _finish(code, value):
    """The harness evaluates a case's last line: a statement there gets `value` after it."""
    try:
        compile(code.rsplit("\n", 1)[-1], "<case>", "eval")
        return code
    except SyntaxError:
        return code + "\n" + value


# --- graphs ------------------------------------------------------------------------------------------------

# Leaf shapes: pairs that broadcast (a, b), c never requires grad.
SHAPE_PAIRS = [((3,), (3,)), ((2, 3), (3,)), ((2, 3), (1, 3)), ((3, 1), (1, 3)), ((2, 3), (2, 1)), ((4,), ()),
               ((2, 2), (2, 2)), ((2, 3, 2), (3, 1)), ((3, 3), (3,)), ((), ()), ((1, 3), (2, 1)), ((2, 4), (4,))]

# (PyTorch ops gradlab does not have yet, left out of the lists below: fmax, fmin, copysign, xlogy, F.celu, F.selu,
# F.tanhshrink, as_strided, unfold)
# Elementwise ops on one operand ({x}); safe on any finite input
UNARY_OPS = ["{x}.exp()", "{x}.sin()", "{x}.cos()", "{x}.tanh()", "{x}.sigmoid()", "{x}.relu()", "{x}.abs()",
             "{x} * 2", "{x} * -0.5", "{x} + 1", "1 - {x}", "2 / ({x}.abs() + 1)", "{x} ** 2", "{x}.pow(3)",
             "({x}.abs() + 1).sqrt()", "({x}.abs() + 1).log()", "-{x}", "{x}.clamp(-0.5, 0.5)", "{x}.clamp(min=0)",
             "{x}.square()", "({x}.abs() + 0.5).reciprocal()", "F.softplus({x})", "F.gelu({x})", "F.silu({x})",
             "F.leaky_relu({x}, 0.2)", "F.elu({x})", "torch.where({x} > 0, {x}, {x} * 0.1)", "{x}.atan()",
             "{x}.erf()", "({x}.abs() + 1).rsqrt()", "{x}.sinh()", "{x}.clone()", "{x}.masked_fill({x} < 0, 0.)",
             "torch.exp({x})", "torch.sigmoid({x})", "{x}.expm1()", "({x}.abs() + 1).log1p()", "{x}.trunc()",
             "{x}.round()", "{x}.sign() * {x}", "{x}.float()", "{x}.double()", "{x}.type_as({x})", "{x}.to({x})",
             "{x}.nan_to_num()", "{x}.lerp(torch.zeros_like({x}), 0.25)", "{x}.clamp_max(0.3)", "{x}.hardtanh()"
             if False else "F.hardtanh({x})", "torch.tanh({x})", "{x}.neg()", "{x}.frac()", "{x}.fmod(1.5)",
             "{x}.remainder(1.5)", "{x}.log_softmax(-1)", "{x}.softmax(-1)", "{x}.cumsum(-1)", "{x}.cumprod(-1)",
             "{x}.flip(-1)", "{x}.roll(1, -1)", "{x}.contiguous()", "{x}.detach() * {x}", "F.dropout({x}, 0.0)",
             "F.relu6({x})", "F.hardsigmoid({x})", "F.mish({x})", "F.logsigmoid({x})",
             "F.softsign({x})", "F.hardswish({x})", "F.normalize({x}, dim=-1)"]
# Two operands ({x}, {y}) that broadcast
BINARY_OPS = ["{x} + {y}", "{x} - {y}", "{x} * {y}", "{x} / ({y}.abs() + 1)", "torch.maximum({x}, {y})",
              "torch.minimum({x}, {y})", "torch.add({x}, {y}, alpha=2)", "torch.sub({x}, {y}, alpha=0.5)",
              "{x}.mul({y})", "torch.where({x} > {y}, {x}, {y})", "torch.atan2({x}, {y}.abs() + 1)",
              "({x}.abs() + 0.5) ** {y}", "{x}.lerp({y}, 0.3)", "torch.hypot({x}, {y})", "{x}.addcmul({y}, {y}, value=0.5)", "{x}.addcdiv({y}, {y}.abs() + 1)",
              "{x}.div({y}.abs() + 1, rounding_mode=None)", "{x}.clamp({y} - 1, {y} + 1)",
              "{x}.sub({y}).abs()"]
# Reductions: ({x}, ndim) -> code; {d} is a valid dim
REDUCE_OPS = ["{x}.sum()", "{x}.sum({d})", "{x}.sum({d}, keepdim=True)", "{x}.mean({d})", "{x}.mean()",
              "{x}.amax({d})", "{x}.amin({d}, keepdim=True)", "{x}.max({d})[0]", "{x}.min({d}).values", "{x}.max()",
              "{x}.prod({d})", "{x}.std({d})", "{x}.var({d}, unbiased=False)", "{x}.logsumexp({d})", "{x}.norm()",
              "{x}.norm(dim={d})", "{x}.sum(dim=({d},))", "torch.sum({x}, {d})", "{x}.nansum({d})",
              "{x}.median()", "{x}.mean(dim=[{d}], keepdim=True)", "{x}.norm(p=1)", "{x}.abs().sum(-1)",
              "{x}.kthvalue(1, {d})[0]", "{x}.sort({d})[0]", "{x}.topk(1, {d})[0]", "{x}.cummax({d})[0]",
              "{x}.var_mean({d})[0]", "{x}.std_mean({d})[1]", "{x}.aminmax(dim={d})[1]", "{x}.median({d})[0]",
              "{x}.count_nonzero() * {x}.sum()", "{x}.dist({x}.detach() + 1)", "{x}.trace() if {x}.dim() == 2 else {x}.sum()"]


def _broadcast(s1, s2):
    n = max(len(s1), len(s2))
    a, b = (1,) * (n - len(s1)) + tuple(s1), (1,) * (n - len(s2)) + tuple(s2)
    out = []
    for p, q in zip(a, b):
        if p != q and 1 not in (p, q):
            return None
        out.append(max(p, q))
    return tuple(out)


def _reduced(code, shape, d):
    """Shape after one of REDUCE_OPS (None: unknown, the node is then only summed)."""
    if "({d}" not in code and "dim={d}" not in code and "dim=({d}" not in code and "dim=[{d}" not in code:
        if "abs().sum(-1)" in code:
            return shape[:-1] if shape else None
        if "sort" in code or "cummax" in code:
            return shape
        return ()
    if "sort" in code or "cummax" in code:
        return shape
    if "keepdim=True" in code:
        return tuple(1 if i == d % len(shape) else s for i, s in enumerate(shape))
    return tuple(s for i, s in enumerate(shape) if i != d % len(shape))


def _view(rng, x, shape, leaves):
    """A view, slice or index of {x}: (code, shape) or None when none fits."""
    nd = len(shape)
    opts = []
    if nd >= 1:
        n = shape[0]
        opts += [(f"{x}[0]", shape[1:]), (f"{x}[-1]", shape[1:]), (f"{x}[1:]", (max(n - 1, 0),) + shape[1:]),
                 (f"{x}[::2]", ((n + 1) // 2,) + shape[1:]), (f"{x}.unsqueeze(0)", (1,) + shape),
                 (f"{x}[None]", (1,) + shape), (f"{x}.view(-1)", (_numel(shape),)),
                 (f"{x}.reshape(-1)", (_numel(shape),)), (f"{x}.flatten()", (_numel(shape),)),
                 (f"{x}[..., None]", shape + (1,)), (f"{x}.narrow(0, 0, 1)", (1,) + shape[1:]),
                 (f"{x}.select(0, {n - 1})", shape[1:]), (f"{x}.unsqueeze(-1).expand(*{x}.shape, 2)", shape + (2,)),
                 (f"{x}[torch.tensor([0, 0])]", (2,) + shape[1:]), (f"{x}[[0, -1]]", (2,) + shape[1:]),
                 (f"{x}.index_select(0, torch.tensor([{n - 1}, 0]))", (2,) + shape[1:]),
                 (f"{x}.unbind(0)[{n - 1}]", shape[1:]), (f"{x}.split(1)[0]", (1,) + shape[1:]),
                 (f"{x}.chunk(2)[0]", ((n + 1) // 2,) + shape[1:]), (f"{x}.repeat(2, *([1] * {x}.dim()))", (2,) + shape),
                 (f"{x}[{x} > 0]", None), (f"{x}.masked_select({x} < 0.5)", None),
                 (f"{x}.gather(0, torch.zeros_like({x}, dtype=torch.int64))", shape),
                 (f"{x}.take(torch.tensor([0, 1]))" if _numel(shape) > 1 else f"{x}.take(torch.tensor([0]))",
                  (2,) if _numel(shape) > 1 else (1,)),
                 (f"torch.cat([{x}, {x} * 2])", (2 * n,) + shape[1:]), (f"torch.stack([{x}, {x}], -1)", shape + (2,)),
                 (f"{x}.movedim(0, -1)", shape[1:] + shape[:1]), (f"{x}.squeeze()", tuple(s for s in shape if s != 1)),
                 (f"{x}.diag_embed()", shape + shape[-1:])]
    if nd >= 2:
        opts += [(f"{x}.t()", shape[::-1]) if nd == 2 else (f"{x}.transpose(0, 1)", (shape[1], shape[0]) + shape[2:]),
                 (f"{x}.transpose(-1, -2)", shape[:-2] + (shape[-1], shape[-2])), (f"{x}[:, 1:]", (shape[0], shape[1] - 1)
                                                                                    + shape[2:]),
                 (f"{x}[:, 0]", (shape[0],) + shape[2:]), (f"{x}.permute(*reversed(range({x}.dim())))", shape[::-1]),
                 (f"{x}.mT", shape[:-2] + (shape[-1], shape[-2])), (f"{x}.diagonal()", None),
                 (f"{x}[..., -1]", shape[:-1]), (f"{x}[:, [0, 0]]", (shape[0], 2) + shape[2:]),
                 (f"{x}[{x}.sum(-1) > 0]", None), (f"{x}.view({shape[0]}, -1)", (shape[0], _numel(shape[1:]))),
                 (f"{x}.tril()", shape), (f"{x}.triu(1)", shape), (f"{x}.flip(0, 1)", shape),
                 (f"{x}.unflatten(0, ({shape[0]}, 1))", (shape[0], 1) + shape[1:])]
    if nd == 0:
        opts += [(f"{x}.unsqueeze(0)", (1,)), (f"{x}.expand(3)", (3,)), (f"{x}.view(1, 1)", (1, 1)),
                 (f"{x}.reshape(())", ()), (f"{x}[None, None]", (1, 1)), (f"{x}[...]", ())]
    if not opts:
        return None
    return rng.choice(opts)


def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def _matmul(rng, x, shape, leaves, lines):
    """x @ something: a new leaf weight w (requires grad) or x's own transpose."""
    nd = len(shape)
    if nd == 1:
        k = shape[0]
        return rng.choice([(f"{x} @ {x}", ()), (f"{x}.dot({x}.detach() + 1)", ()), (f"torch.outer({x}, {x})", (k, k))])
    if nd == 2:
        m, k = shape
        if "w" not in leaves and rng.random() < 0.6:
            lines.append(f"w = {literal(rng, leaves['a'][1], (k, 2), True, special=0.0)}")
            leaves["w"] = ((k, 2), leaves["a"][1])
            return rng.choice([(f"{x} @ w", (m, 2)), (f"{x}.mm(w)", (m, 2)), (f"torch.matmul({x}, w)", (m, 2)),
                               (f"F.linear({x}, w.t())", (m, 2))])
        return rng.choice([(f"{x} @ {x}.t()", (m, m)), (f"{x}.t() @ {x}", (k, k)), (f"{x} @ {x}[0]", (m,)),
                           (f"torch.einsum('ij,kj->ik', {x}, {x})", (m, m)), (f"{x}.matmul({x}.mT)", (m, m))])
    if nd == 3:
        b, m, k = shape
        return (f"{x} @ {x}.transpose(1, 2)", (b, m, m))
    return None


INPLACE_NONLEAF = ["{x}.mul_(2)", "{x}.add_(1)", "{x}.add_({y})", "{x}.mul_({y})", "{x}.sub_({y}, alpha=2)",
                   "{x}.exp_()", "{x}.sin_()", "{x}.tanh_()", "{x}.sigmoid_()", "{x}.relu_()", "{x}.clamp_(-1, 1)",
                   "{x}.div_(2)", "{x}.pow_(2)", "{x}.neg_()", "{x}.abs_()", "{x}.zero_()", "{x}.fill_(0.5)",
                   "{x}.masked_fill_({x} > 0, 0.)", "{x}.copy_({y})", "{x}[0] = 1.", "{x}[...] = 0.",
                   "{x}[{x} < 0] = 0.", "{x}.clamp_min_(0)", "{x} += {y}", "{x} *= 3", "{x} /= 2", "{x} -= {y}",
                   "{x}.square_()", "{x}.lerp_({y}, 0.5)", "{x}.addcmul_({y}, {y})", "{x}.t_()", "{x}.unsqueeze_(0)",
                   "{x}.squeeze_()", "{x}.index_fill_(-1, torch.tensor([0]), 2.)", "{x}.fmod_(1.5)", "{x}.sqrt_()"]


def gen_graph(rng, public):
    """A random graph of 2-8 ops over leaves a, b (and c, not requiring grad), backward, then everything about it."""
    dtype = rng.choice(["float32", "float32", "float32", "float64"])
    sa, sb = rng.choice(SHAPE_PAIRS)
    if rng.random() < 0.5:
        sa, sb = sb, sa
    lines = [HELPERS, f"a = {literal(rng, dtype, sa, True, special=0.0)}",
             f"b = {literal(rng, rng.choice([dtype, dtype, 'float32', 'float64']), sb, rng.random() < 0.85, special=0.0)}"]
    leaves = {"a": (sa, dtype), "b": (sb, dtype)}
    if rng.random() < 0.3:
        lines.append(f"c = {literal(rng, dtype, sb, False, special=0.0)}")
        leaves["c"] = (sb, dtype)
    shapes = {"a": sa, "b": sb, **({"c": sb} if "c" in leaves else {})}
    nodes, retained, kinds = [], [], []
    for i in range(rng.randint(2, 8)):
        name = f"n{i}"
        pool = list(shapes)
        x = rng.choice(nodes[-2:] + pool if nodes else pool)
        shape = shapes[x]
        r = rng.random()
        code = new_shape = None
        if r < 0.28:
            code, new_shape, kind = rng.choice(UNARY_OPS).format(x=x), shape, "unary"
        elif r < 0.48:
            others = [o for o in shapes if _broadcast(shapes[o], shape) is not None]
            y = rng.choice(others)
            code, new_shape, kind = rng.choice(BINARY_OPS).format(x=x, y=y), _broadcast(shapes[y], shape), "binary"
            if rng.random() < 0.5:
                code = code.replace("{", "").replace("}", "")
        elif r < 0.66:
            v = _view(rng, x, shape, leaves)
            if v is not None:
                code, new_shape = v
                kind = "view"
        elif r < 0.78 and shape:
            d = rng.randrange(-len(shape), len(shape))
            red = rng.choice(REDUCE_OPS)
            code, new_shape, kind = red.format(x=x, d=d), _reduced(red, shape, d), "reduce"
        elif r < 0.86:
            m = _matmul(rng, x, shape, leaves, lines)
            if m is not None:
                (code, new_shape), kind = m, "matmul"
                if "w" in leaves:
                    shapes.setdefault("w", leaves["w"][0])
        elif nodes:
            # in-place on a non-leaf (or on a view of one): the base's grad_fn changes (CopySlices, ...)
            target = rng.choice(nodes)
            others = [o for o in shapes if _broadcast(shapes[o], shapes[target]) == shapes[target]]
            stmt = rng.choice(INPLACE_NONLEAF)
            if rng.random() < 0.35 and len(shapes[target]) >= 1:
                vw = rng.choice([f"{target}[0]", f"{target}[1:]" if shapes[target][0] > 1 else f"{target}[:1]",
                                 f"{target}.view(-1)" if len(shapes[target]) <= 1 else f"{target}[:, 0]",
                                 f"{target}.t()" if len(shapes[target]) == 2 else f"{target}[::2]",
                                 f"{target}.unsqueeze(0)", f"{target}.detach()", f"{target}.data"])
                lines.append(f"v{i} = {vw}")
                stmt = rng.choice(INPLACE_NONLEAF[:20]).format(x=f"v{i}", y="1.5")
            else:
                stmt = stmt.format(x=target, y=rng.choice(others) if others else "0.5")
            lines.append(stmt)
            kinds.append("inplace")
            continue
        if code is None:
            code, new_shape, kind = rng.choice(UNARY_OPS).format(x=x), shape, "unary"
        lines.append(f"{name} = {code}")
        nodes.append(name)
        kinds.append(kind)
        shapes[name] = new_shape if new_shape is not None else None
        if shapes[name] is None:  # unknown shape (a mask's count): only used through a sum from here on
            lines.append(f"{name} = {name}.sum()")
            shapes[name] = ()
        if rng.random() < 0.2:
            lines.append(f"{name}.retain_grad()")
            retained.append(name)
    last = nodes[-1]
    loss = rng.choice([f"{last}.sum()", f"({last} * {last}).mean()", f"{last}.sum() + sum(t.sum() for t in "
                       f"[{', '.join(nodes)}])", f"{last}.abs().sum()", f"{last}.exp().mean()" if False else
                       f"{last}.tanh().sum()"])
    tail = rng.random()
    lines.append(f"loss = {loss}")
    grad_leaves = [k for k in ("a", "b", "w") if k in shapes]
    if tail < 0.55:
        lines.append("loss.backward()")
        out = (f"(loss.detach(), [{', '.join(k + '.grad' for k in grad_leaves)}], walk(loss), "
               f"[meta(t) for t in [{', '.join(nodes)}]], [{', '.join(r + '.grad' for r in retained)}])")
    elif tail < 0.7:
        lines.append(f"g = torch.autograd.grad(loss, [{', '.join(k for k in grad_leaves)}], allow_unused=True)")
        out = "(g, loss.grad_fn.name(), [meta(t) for t in [%s]])" % ", ".join(nodes)
    elif tail < 0.8:
        # the non-leaf's .grad without retain_grad(): None and a UserWarning
        lines.append("loss.backward()")
        out = f"({rng.choice(nodes)}.grad, a.grad)"
    elif tail < 0.9:
        lines.append(f"{last}.backward(torch.ones_like({last}))" if rng.random() < 0.7 else f"{last}.backward()")
        out = f"([{', '.join(k + '.grad' for k in grad_leaves)}], walk({last}))"
    else:
        # the harness backpropagates a result that requires grad once more: the second pass over a spent graph
        lines.append("loss.backward()")
        out = f"({last}, a.grad)"
    fam = "graph:" + "-".join(sorted(set(kinds)))
    return Case("autograd", "\n".join(lines + [out]), fam)


# --- saved tensors, versions, freed graphs -----------------------------------------------------------------

# (code, what it saves, in words only for the reader): {x} -> result
SAVERS = ["{x}.exp()", "{x}.sin()", "{x}.cos()", "{x}.tanh()", "{x}.sigmoid()", "{x} * 2", "{x} * {x}", "{x} / 2",
          "2 / {x}", "{x} ** 2", "{x}.pow(3)", "{x}.sqrt()", "{x}.log()", "{x}.abs()", "{x}.relu()", "{x} + 1",
          "{x}.sum()", "{x}.mean()", "{x}.prod()", "{x}.max()", "{x}.amax(0)", "{x}.softmax(0)", "{x}.log_softmax(0)",
          "{x}.norm()", "{x}.std()", "{x}.clamp(-1, 1)", "{x}.clone()", "{x}[0]", "{x}.t()", "{x}.view(-1)",
          "{x}.reshape(2, -1)", "{x}.expand(2, -1, -1)", "{x}.reciprocal()", "{x}.rsqrt()", "{x}.atan()",
          "{x}.masked_fill({x} > 0, 0.)", "torch.where({x} > 0, {x}, 0.)", "{x}.gather(0, torch.tensor([[0, 1, 0]]))",
          "{x}.index_select(0, torch.tensor([0]))", "{x}.min(0)[0]", "{x} @ {x}.t()", "{x}.cumsum(0)",
          "{x}.logsumexp(0)", "F.gelu({x})", "F.silu({x})", "F.softplus({x})", "F.elu({x})", "F.leaky_relu({x})",
          "{x}.sum(0, keepdim=True)", "{x}.mul({x}.detach())", "{x}.erf()", "{x}.square()", "{x}.lerp({x}, 0.5)",
          "torch.cat([{x}, {x}])", "{x}.flip(0)", "{x}.roll(1, 0)", "{x}.sort(1)[0]", "{x}.cumprod(1)",
          "{x}.var(1)", "{x}.sinh()", "{x}.asin()" if False else "({x} * 0.3).asin()", "F.mse_loss({x}, {x}.detach() + 1)",
          "F.binary_cross_entropy({x}.sigmoid(), torch.ones_like({x}))", "F.normalize({x})", "{x}.unbind(0)[1]"]
MUTATORS = ["{t}.add_(1)", "{t}.mul_(2)", "{t}.zero_()", "{t}[0] = 0.", "{t}.exp_()", "{t}.data.add_(1)",
            "{t}.detach().mul_(2)", "{t} += 1", "{t}.relu_()", "{t}.copy_(torch.ones_like({t}))",
            "with torch.no_grad():\n    {t}.add_(1)", "{t}.t_()", "{t}.unsqueeze_(0)", "{t}.resize_(6)" if False else
            "{t}.clamp_(max=0.5)", "{t}.requires_grad_(True)", "{t}.sigmoid_()"]


def gen_saved(rng, public):
    """An in-place change after a tensor was saved for backward; backward twice; reading saved tensors."""
    dtype = rng.choice(["float32", "float64"])
    shape = rng.choice([(2, 3), (2, 3), (3,)[:0] + (2, 3)])
    x = literal(rng, dtype, shape, True, special=0.0)
    x = x.replace(")", ")", 1)
    lines = [HELPERS, f"x = {x}"]
    op1 = rng.choice(SAVERS).format(x="x")
    op2 = rng.choice(SAVERS).format(x="y")
    k = rng.randrange(6)
    if k <= 1:
        # y = op1(x); z = op2(y); change y, z or x's clone in place; backward
        lines += [f"x1 = x * 1", f"y = {op1.replace('x', 'x1').replace('x1.detach()', 'x1.detach()')}",
                  f"z = {op2}"]
        target = rng.choice(["y", "z", "x1", "y", "z"])
        lines.append(rng.choice(MUTATORS).format(t=target))
        lines.append(rng.choice(["z.sum().backward()", "torch.autograd.grad(z.sum(), x)",
                                 "z.backward(torch.ones_like(z))"]))
        out = rng.choice(["x.grad", "(x.grad, y._version, z._version, x1._version)", "walk(z)"])
        fam = "saved:inplace"
    elif k == 2:
        # backward twice: which nodes keep nothing (PyTorch still refuses a second pass through every node)
        lines += [f"y = {op1}", f"z = {op2}"]
        lines.append(rng.choice(["z.sum().backward()\nz.sum().backward()", "s = z.sum()\ns.backward()\ns.backward()",
                                 "s = z.sum()\ns.backward(retain_graph=True)\ns.backward()",
                                 "s = z.sum()\ntorch.autograd.grad(s, x)\ns.backward()",
                                 "s = z.sum()\ntorch.autograd.grad(s, x, retain_graph=True)\ntorch.autograd.grad(s, x)",
                                 "s = z.sum()\ns.backward()\n(y * 2).sum().backward()",
                                 "s = z.sum()\ns.backward(inputs=[x])\ns.backward(inputs=[x])"]))
        out = "x.grad"
        fam = "saved:twice"
    elif k == 3:
        # the saved tensors read back; after backward they are freed
        lines += [f"y = {op1}"]
        attr = rng.choice(["_saved_self", "_saved_result", "_saved_other", "_saved_exponent", "_saved_dim",
                           "_saved_keepdim", "_saved_alpha", "_saved_self_sym_sizes", "_saved_indices",
                           "_saved_min", "_saved_max", "_saved_index", "_saved_scalar" ])
        lines.append(rng.choice(["", "y.sum().backward()", "y.sum().backward(retain_graph=True)"]))
        out = rng.choice([f"y.grad_fn.{attr}", f"getattr(y.grad_fn, '{attr}', 'none')",
                          f"y.grad_fn.{attr} is x", f"y.grad_fn.{attr}.equal(y)"])
        fam = "saved:attr"
    elif k == 4:
        # a leaf changed in no_grad after use; its saved copy's version is checked
        lines += [f"y = {op1}", rng.choice(["with torch.no_grad():\n    x.mul_(2)", "x.data.mul_(2)",
                                          "x.detach().zero_()", "with torch.no_grad():\n    x[0] = 1.",
                                          "x.data = torch.zeros_like(x)", "x.requires_grad_(False)",
                                          "x.grad = torch.ones_like(x)"]),
                  rng.choice(["y.sum().backward()", "y.backward(torch.ones_like(y))", "torch.autograd.grad(y.sum(), x)"])]
        out = rng.choice(["x.grad", "(x._version, x.grad)", "x"])
        fam = "saved:leaf-version"
    else:
        # in-place on a view of a non-leaf that another op saved
        lines += ["x1 = x.clone()", f"y = {op1.replace('x', 'x1')}", rng.choice(["v = x1[0]", "v = x1.t()",
                  "v = x1.view(-1)", "v = x1[:, 1:]", "v = x1.unsqueeze(0)", "v = x1.detach()", "v = x1[1]"]),
                  rng.choice(["v.mul_(2)", "v.zero_()", "v.add_(1)", "v.exp_()", "v[0] = 2."]),
                  rng.choice(["(y.sum() + x1.sum()).backward()", "y.sum().backward()", "x1.sum().backward()"])]
        out = rng.choice(["x.grad", "(x.grad, walk(x1), x1._version)", "walk(x1)", "(x1.grad_fn.name(), v.grad_fn)"])
        fam = "saved:view"
    return Case("autograd", "\n".join(lines + [out]), fam)


# --- misuse: the errors a student meets ----------------------------------------------------------------------

MISUSE = [
    "x.add_(1)", "x.mul_(2)", "x[0] = 1.", "x.zero_()", "x.exp_()", "x += 1", "x.copy_(x * 2)", "x.relu_()",
    "v = x[0]\nv.add_(1)", "v = x.view(-1)\nv.mul_(2)", "v = x.t()\nv.zero_()", "v = x[:, :1]\nv[0] = 0.",
    "x.unsqueeze_(0)", "x.t_()", "x.squeeze_()", "x.resize_(6)", "x.set_(torch.zeros(6))" if False else "x.fill_(1)",
    "(x * 2).requires_grad_()", "(x * 2).requires_grad_(False)", "y = x * 2\ny.requires_grad = False",
    "y = x * 2\ny.requires_grad = True\ny", "x.requires_grad = False\nx",
    "(x * 2).backward()", "(x * 2).backward(torch.ones(3))", "(x * 2).backward(torch.ones(2, 3, 1))",
    "(x * 2).backward(torch.ones(3, 2))", "(x * 2).backward(torch.ones(2, 3, dtype=torch.float64))\nx.grad",
    "(x * 2).backward(torch.ones(2, 3, dtype=torch.int64))", "(x * 2).backward(torch.ones(1, 3))",
    "(x * 2).backward(torch.ones(()))", "(x * 2).backward(2.)", "x.sum().backward(torch.ones(1))",
    "x.sum().backward(torch.ones(()))\nx.grad", "x.sum().backward(torch.tensor(2.))\nx.grad",
    "x.detach().sum().backward()", "torch.ones(3).backward()", "torch.ones(3).sum().backward()",
    "x.sum().detach().backward()", "x.sum().backward(retain_graph=False, create_graph=True)\nx.grad",
    "x.sum().backward(inputs=[])", "x.sum().backward(inputs=[x * 2])", "x.sum().backward(inputs=x)\nx.grad",
    "torch.autograd.grad(x.sum(), x * 2)", "torch.autograd.grad(x.sum(), [x, torch.ones(2)])",
    "torch.autograd.grad((x * 2).sum(), [x, torch.ones(2, requires_grad=True)])",
    "torch.autograd.grad((x * 2).sum(), [x, torch.ones(2, requires_grad=True)], allow_unused=True)",
    "torch.autograd.grad((x * 2).sum(), [x, torch.ones(2, requires_grad=True)], materialize_grads=True)",
    "torch.autograd.grad((x * 2).sum(), torch.ones(2, requires_grad=True), allow_unused=False, materialize_grads=True)",
    "torch.autograd.grad((x * 2), x)", "torch.autograd.grad((x * 2), x, torch.ones(2, 3))",
    "torch.autograd.grad((x * 2), x, grad_outputs=torch.ones(3))", "torch.autograd.grad([], x)",
    "torch.autograd.grad(x.sum(), [])", "torch.autograd.grad(x.sum(), x, is_grads_batched=False)",
    "torch.autograd.grad([x.sum(), (x * 2).sum()], x)", "torch.autograd.grad([x.sum(), x.sum()], [x, x])",
    "torch.autograd.grad(x.sum(), (x,), grad_outputs=(None,))", "torch.autograd.grad(x.sum(), x, only_inputs=False)",
    "torch.autograd.grad(x.detach().sum(), x)", "torch.autograd.grad(torch.ones(1).sum(), x)",
    "torch.autograd.grad(x.sum(), x.detach())", "torch.autograd.grad(x.sum(), x.detach(), allow_unused=True)",
    "torch.autograd.grad(x.sum(), 3)", "torch.autograd.grad(x.sum(), [x], grad_outputs=[torch.ones(2)])",
    "torch.autograd.backward(x.sum(), inputs=[x])\nx.grad", "torch.autograd.backward([x.sum(), (x * 3).sum()])\nx.grad",
    "torch.autograd.backward(x * 2, torch.ones(2, 3))\nx.grad", "torch.autograd.backward(x * 2)",
    "torch.autograd.backward([x.sum()], [None])\nx.grad", "torch.autograd.backward(x.sum(), grad_tensors=[torch.ones(())])",
    "i = torch.tensor([1, 2], requires_grad=True)", "i = torch.arange(3.).long().requires_grad_()",
    "torch.ones(2, dtype=torch.int32).requires_grad_(True)", "torch.zeros(2, dtype=torch.bool).requires_grad_()",
    "torch.autograd.grad(x.long().sum(), x)", "x.long().sum().backward()", "(x > 0).float().sum().backward()",
    "x.argmax().backward()", "x.round().sum().backward()\nx.grad", "x.sign().sum().backward()\nx.grad",
    "x.floor().requires_grad", "x.argmax().requires_grad", "(x > 0).requires_grad", "x.numpy()", "x.detach().numpy()",
    "(x * 2).numpy()", "x.tolist()", "x.item()", "x.sum().item()", "float(x.sum())", "x.data.numpy()",
    "x.numpy(force=True)", "np.asarray(x)", "np.array(x * 2)", "x.detach_()", "(x * 2).detach_()",
    "y = x.view(-1)\ny.detach_()", "y = x * 2\nz = y.detach()\nz.add_(1)\ny", "y = x * 2\ny.detach_()\n(y.grad_fn, y.is_leaf)",
    "y = x[0]\nz = y.detach_()", "x.grad = torch.ones(3)", "x.grad = torch.ones(2, 3, dtype=torch.float64)",
    "x.grad = torch.ones(2, 3, dtype=torch.int64)", "x.grad = torch.ones(2, 3)\nx.grad", "x.grad = 1.",
    "x.grad = [1., 2.]", "x.grad = torch.ones(2, 3).t().contiguous().t()\nx.grad", "x.grad = torch.ones(2, 3, device='meta')",
    "x.grad = x", "x.grad = torch.ones(3, 2).t()\nx.grad.stride()", "(x * 2).grad = torch.ones(2, 3)",
    "y = x * 2\ny.grad = torch.ones(2, 3)\ny.grad", "x.grad = torch.ones(2, 3, requires_grad=True)\nx.grad.requires_grad",
    "x.grad = torch.ones(1, 3)", "x.grad = torch.ones(2, 3).expand(2, 3)\nx.grad",
    "x.retain_grad()\nx.retains_grad", "(x * 2).retain_grad()", "y = x.detach()\ny.retain_grad()",
    "y = x * 2\ny.retain_grad()\ny.retain_grad()\ny.retains_grad", "torch.ones(2).retain_grad()",
    "x.grad_fn", "x.sum().grad_fn.next_functions[0][0].variable is x", "x.is_leaf", "(x * 2).is_leaf",
    "x.detach().is_leaf", "x.long().is_leaf", "(x * 2).grad", "(x * 2).sum().grad_fn.name()",
    "x.register_hook(lambda g: g)\n(x * 2).sum().backward()\nx.grad", "x.detach().register_hook(lambda g: g)",
    "x.long().register_hook(lambda g: g)", "(x * 2).register_hook(3)", "x.register_hook(lambda g: 5)\nx.sum().backward()",
    "x.register_hook(lambda g: torch.ones(3))\nx.sum().backward()", "x.register_hook(lambda g: g.double())\nx.sum().backward()\nx.grad",
    "x.register_hook(lambda g: g.long())\nx.sum().backward()", "x.register_hook(lambda g: None)\nx.sum().backward()\nx.grad",
    "x.sum().backward()\nx.sum().backward()\nx.grad", "x.sum().backward()\nx.grad.requires_grad",
    "(x * x).sum().backward(create_graph=True)\n(x.grad.requires_grad, x.grad.grad_fn)",
    "x.sum().backward()\nx.grad.zero_()\nx.grad", "x.sum().backward()\nx.grad = None\nx.grad",
    "torch.nn.Parameter(torch.ones(2, dtype=torch.int64))", "torch.nn.Parameter(x * 2)",
    "torch.nn.Parameter(x * 2).is_leaf", "p = torch.nn.Parameter(torch.ones(2))\np.add_(1)",
    "x.clone().requires_grad", "x.clone().is_leaf", "x.new_ones(2).requires_grad", "torch.ones_like(x).requires_grad",
    "torch.zeros_like(x, requires_grad=True).is_leaf", "x.to(torch.float64).grad_fn", "x.to(torch.float32) is x",
    "x.float() is x", "x.cpu() is x", "x.double().is_leaf", "x.type(torch.float64).grad_fn", "x.half().grad_fn",
]


def gen_misuse(rng, public):
    dtype = rng.choice(["float32", "float32", "float64"])
    x = literal(rng, dtype, (2, 3), True, special=0.0)
    code = rng.choice(MISUSE)
    head = rng.choice(["", "", "x = x * 1\n", "x = x[0:2]\n"]) if code.startswith("x.") and rng.random() < 0.2 else ""
    lines = [f"x = {x}", head + code]
    return Case("autograd", _finish("\n".join(lines), "x"), "misuse:" + code.split("\n")[0][:40])


# --- grad modes ------------------------------------------------------------------------------------------------

MODE_BLOCKS = [
    "with torch.no_grad():\n    {body}", "with torch.enable_grad():\n    {body}", "with torch.set_grad_enabled(False):\n    {body}",
    "with torch.set_grad_enabled(True):\n    {body}", "with torch.inference_mode():\n    {body}",
    "with torch.inference_mode(False):\n    {body}", "with torch.no_grad(), torch.enable_grad():\n    {body}",
    "with torch.no_grad():\n    with torch.enable_grad():\n        {body}",
    "with torch.enable_grad():\n    with torch.no_grad():\n        {body}",
    "with torch.inference_mode():\n    with torch.enable_grad():\n        {body}",
    "with torch.autograd.grad_mode.no_grad():\n    {body}", "with torch.autograd.set_grad_enabled(False):\n    {body}",
    "torch.set_grad_enabled(False)\n{body}\ntorch.set_grad_enabled(True)",
    "prev = torch.is_grad_enabled()\ntorch.set_grad_enabled(False)\n{body}\ntorch.set_grad_enabled(prev)",
]
MODE_BODIES = ["y = x * 2", "y = x.exp().sum()", "y = x[0]", "y = x.view(-1)", "y = x.t()", "y = x.clone()",
               "y = x + 1\ny.add_(1)", "y = torch.ones(2, requires_grad=True)", "y = x.detach()",
               "y = x.requires_grad_(True)", "y = (x * 2).requires_grad_()", "y = torch.ones(2)",
               "y = nn.Linear(3, 2)(x)", "y = F.relu(x)", "y = x.long()", "y = torch.is_grad_enabled()",
               "y = torch.is_inference_mode_enabled()", "x.add_(1)\ny = x", "x[0] = 5.\ny = x", "y = x @ x.t()"]


def gen_modes(rng, public):
    x = literal(rng, rng.choice(["float32", "float64"]), (2, 3), rng.random() < 0.85, special=0.0)
    lines = ["torch.manual_seed(0)", f"x = {x}"]
    k = rng.randrange(5)
    if k <= 1:
        body = rng.choice(MODE_BODIES)
        block = rng.choice(MODE_BLOCKS)
        indent = block.split("{body}")[0].rsplit("\n", 1)[-1]
        lines.append(block.format(body=body.replace("\n", "\n" + indent)))
        out = rng.choice(["(y, torch.is_grad_enabled())", "meta(y) if hasattr(y, 'grad_fn') else y",
                          "(y.is_inference(), y.requires_grad) if hasattr(y, 'is_inference') else y",
                          "(y * 2).sum().backward() if hasattr(y, 'grad_fn') else y",
                          "(y, x.grad, x._version)" if False else "(y, x.is_inference(), torch.is_inference_mode_enabled())"])
        fam = "modes:" + block.split(":")[0].split("\n")[-1][:40]
    elif k == 2:
        # decorators: the function runs under the mode, and is_grad_enabled is restored after it
        deco = rng.choice(["@torch.no_grad()", "@torch.enable_grad()", "@torch.set_grad_enabled(False)",
                           "@torch.inference_mode()", "@torch.no_grad", "@torch.inference_mode",
                           "@torch.inference_mode(False)"])
        body = rng.choice(["return t * 2", "return torch.is_grad_enabled()", "return (t * 2).requires_grad",
                           "return t.exp().sum()", "t.add_(1)\n    return t", "return torch.is_inference_mode_enabled()"])
        lines.append(f"{deco}\ndef f(t):\n    {body}")
        pre = rng.choice(["", "torch.set_grad_enabled(False)\n", "with torch.no_grad():\n    r = f(x)\n"])
        lines.append(pre + ("" if "r = f" in pre else "r = f(x)"))
        out = rng.choice(["(r, torch.is_grad_enabled())", "meta(r) if hasattr(r, 'grad_fn') else r"])
        fam = "modes:decorator:" + deco
    elif k == 3:
        # inference tensors outside inference mode
        lines.append("with torch.inference_mode():\n    i = torch.ones(2, 3) * 2")
        use = rng.choice(["i.add_(1)", "i.requires_grad_()", "(i * x).sum().backward()\nx.grad", "i * x",
                          "x.add_(i)", "i.is_inference()", "i.clone().is_inference()", "i.view(-1)", "i[0] = 1.",
                          "i.detach().is_inference()", "torch.autograd.grad((i * x).sum(), x)", "i.copy_(x)",
                          "x.detach().copy_(i)\nx", "with torch.inference_mode():\n    i.add_(1)\ni",
                          "nn.Linear(3, 1)(i)", "i.requires_grad", "i._version", "i.t_()",
                          "with torch.no_grad():\n    i.mul_(2)", "y = x * 1\ny.mul_(i)\ny.grad_fn",
                          "torch.ones(2).requires_grad_(True)", "(i.clone() * 2).requires_grad_()"])
        lines.append(use)
        out = None
        fam = "modes:inference-tensor"
    else:
        # the state objects themselves
        lines.append(rng.choice([
            "torch.set_grad_enabled(False)\nr = (torch.is_grad_enabled(), (x * 2).requires_grad)\ntorch.set_grad_enabled(True)\nr",
            "m = torch.set_grad_enabled(False)\nr = torch.is_grad_enabled()\ntorch.set_grad_enabled(True)\n(r, type(m).__name__)",
            "with torch.no_grad():\n    pass\ntorch.is_grad_enabled()", "torch.no_grad()", "type(torch.no_grad()).__name__",
            "torch.set_grad_enabled('yes')", "torch.set_grad_enabled()", "torch.inference_mode(mode=False)",
            "with torch.no_grad() as g:\n    pass\ng", "torch.no_grad(True)",
            "with torch.inference_mode():\n    r = (torch.is_grad_enabled(), torch.is_inference_mode_enabled())\nr",
            "with torch.enable_grad():\n    r = torch.is_grad_enabled()\nr",
            "with torch.no_grad():\n    torch.set_grad_enabled(True)\n    r = torch.is_grad_enabled()\n(r, torch.is_grad_enabled())",
            "torch.autograd.grad_mode.set_grad_enabled(False).__enter__()\nr = torch.is_grad_enabled()\ntorch.set_grad_enabled(True)\nr",
            "torch.is_grad_enabled(1)", "torch.is_inference_mode_enabled()",
            "with torch.no_grad():\n    y = x * 2\n    y.requires_grad_()\nz = y * 3\n(meta(y), meta(z))",
            "with torch.no_grad():\n    y = x[0]\ny.grad_fn", "with torch.no_grad():\n    y = x.view(-1)\ny.mul_(2)\nx",
            "with torch.no_grad():\n    y = x.view(-1)\nz = y * 1\nz.sum().backward()\nx.grad",
        ]))
        out = None
        fam = "modes:state"
    code = _finish("\n".join([HELPERS] + lines + ([out] if out else [])), "x")
    return Case("autograd", code, fam)


# --- higher order, hooks, Function, functional ---------------------------------------------------------------

SMOOTH = ["{x}.exp()", "{x}.sin()", "{x}.tanh()", "{x}.sigmoid()", "{x} ** 3", "{x} * {x}", "{x}.pow(2.5)" if False
          else "({x} * {x} + 1).sqrt()", "({x} * {x} + 1).log()", "{x}.cos()", "{x} / ({x} * {x} + 1)",
          "F.softplus({x})", "F.gelu({x})", "F.silu({x})", "{x}.softmax(-1)", "{x}.log_softmax(-1)", "{x}.norm(dim=-1)",
          "{x}.logsumexp(-1)", "{x}.prod(-1)", "{x}.cumsum(-1)", "{x}.std(-1)", "{x} @ {x}.t()" , "{x}.atan()",
          "{x}.erf()", "F.elu({x})", "{x}.sinh()", "{x}.cosh()", "{x}.mean(-1) * {x}.sum()", "{x}.square().mean()",
          "{x}.reciprocal() if False else 1 / ({x}.abs() + 1)", "{x}.var(-1)", "F.mse_loss({x}, {x}.detach() * 2)",
          "{x}.t() @ {x}", "{x}.max(-1)[0] * {x}.sum()", "{x}.relu() * {x}", "{x}.abs() * {x}",
          "{x}.lerp({x}.detach(), 0.3)", "torch.maximum({x}, {x}.detach().flip(-1))", "{x}.clamp(-0.5, 0.5) * {x}"]

FUNCTIONS = {
    "square": '''class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g''',
    "two": '''class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        ctx.save_for_backward(x)
        return x * k, x.sum()
    @staticmethod
    def backward(ctx, g1, g2):
        x, = ctx.saved_tensors
        return g1 * ctx.k + g2, None''',
    "needs": '''class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x * y
    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        seen.append(ctx.needs_input_grad)
        return (g * y if ctx.needs_input_grad[0] else None, g * x if ctx.needs_input_grad[1] else None)''',
    "dirty": '''class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g * 2''',
    "nondiff": '''class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        v, i = x.max(-1)
        ctx.mark_non_differentiable(i)
        ctx.save_for_backward(x, i)
        return v, i
    @staticmethod
    def backward(ctx, gv, gi):
        x, i = ctx.saved_tensors
        seen.append(gi)
        return torch.zeros_like(x).scatter(-1, i.unsqueeze(-1), gv.unsqueeze(-1))''',
    "once": '''class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.exp()
    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x.exp()''',
    "materialize": '''class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(MAT)
        return x.clone(), x.clone()
    @staticmethod
    def backward(ctx, g1, g2):
        seen.append((g1 is None, g2 is None))
        return g1 if g1 is not None else g2''',
    "wrong-count": '''class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g, g''',
    "wrong-shape": '''class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g.sum()''',
    "return-input": '''class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x
    @staticmethod
    def backward(ctx, g):
        return g * 3''',
    "view": '''class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view(-1)
    @staticmethod
    def backward(ctx, g):
        return g.view(2, 3) * 2''',
    "setup": '''class Fn(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x.sin()
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        ctx.save_for_backward(x)
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x.cos()''',
    "save-output": '''class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y
    @staticmethod
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g * y''',
    "int-out": '''class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return (x > 0).long()
    @staticmethod
    def backward(ctx, g):
        return g''',
}


def gen_higher(rng, public):
    dtype = rng.choice(["float32", "float64", "float64"])
    shape = rng.choice([(2, 3), (3,), (2, 2)])
    x = literal(rng, dtype, shape, True, special=0.0)
    lines = [HELPERS, "seen = []", f"x = {x}"]
    k = rng.randrange(9)
    if k <= 1:
        # create_graph through a small chain, then a second (and maybe third) derivative
        v = "x"
        for i in range(rng.randint(1, 3)):
            lines.append(f"h{i} = " + rng.choice(SMOOTH).format(x=v))
            v = f"h{i}"
        lines.append(f"s = {v}.sum()")
        lines.append("g, = torch.autograd.grad(s, x, create_graph=True)")
        out = rng.choice([
            "(g, walk(g))", "g.sum().backward()\nx.grad", "gg, = torch.autograd.grad(g.sum(), x)\ngg",
            "gg, = torch.autograd.grad(g.sum(), x, create_graph=True)\nggg, = torch.autograd.grad(gg.sum(), x, "
            "allow_unused=True, materialize_grads=True)\n(gg, ggg)",
            "(g * g).sum().backward()\n(x.grad, g.grad_fn.name())", "g.requires_grad, g.is_leaf",
            "s.backward(create_graph=True)\n(x.grad.grad_fn, x.grad.requires_grad)",
            "gg = torch.autograd.grad(g, x, torch.ones_like(g), retain_graph=True)\n(gg, walk(g))",
            "torch.autograd.grad(g.sum(), x)\ntorch.autograd.grad(g.sum(), x)"])
        fam = "higher:double"
    elif k == 2:
        # hooks on leaves and non-leaves, changing or observing the gradient, removed or not
        lines.append("y = " + rng.choice(SMOOTH).format(x="x"))
        target = rng.choice(["x", "y"])
        hook = rng.choice(["lambda g: g * 2", "lambda g: seen.append(g.clone())", "lambda g: g + 1",
                           "lambda g: torch.zeros_like(g)", "lambda g: g.clamp(max=0.1)", "lambda g: None",
                           "lambda g: seen.append(g.shape)"])
        lines.append(f"h = {target}.register_hook({hook})")
        if rng.random() < 0.3:
            lines.append(f"h2 = {target}.register_hook(lambda g: g * 10)")
        if rng.random() < 0.3:
            lines.append("h.remove()")
        if target == "y" and rng.random() < 0.5:
            lines.append("y.retain_grad()")
        lines.append(rng.choice(["y.sum().backward()", "(y * y).sum().backward()", "torch.autograd.grad(y.sum(), x)"]))
        out = rng.choice(["(x.grad, seen)", "(x.grad, y.grad if y.retains_grad else None, len(seen))"])
        fam = f"higher:hook:{target}"
    elif k == 3:
        # Module forward hooks and forward pre-hooks
        lines.append("torch.manual_seed(1)")
        lines.append("m = nn.Linear(%d, 2)" % shape[-1])
        hook = rng.choice(["m.register_forward_hook(lambda mod, i, o: o * 2)",
                           "m.register_forward_hook(lambda mod, i, o: seen.append(type(o.grad_fn).__name__))",
                           "m.register_forward_pre_hook(lambda mod, i: (i[0] * 0.5,))",
                           "m.register_forward_pre_hook(lambda mod, i: seen.append(i[0].requires_grad))",
                           "m.register_forward_hook(lambda mod, i, o: None)",
                           "m.register_full_backward_hook(lambda mod, gi, go: (gi[0] * 0,))",
                           "m.register_forward_hook(lambda mod, args, kwargs, o: o + 1, with_kwargs=True)"])
        lines.append(f"h = {hook}")
        if rng.random() < 0.3:
            lines.append("h.remove()")
        lines.append("y = m(x)")
        lines.append("y.sum().backward()")
        out = rng.choice(["(y, x.grad, m.weight.grad, seen)", "(walk(y), seen)"])
        fam = "higher:module-hook"
    elif k <= 5:
        name = rng.choice(sorted(FUNCTIONS))
        src = FUNCTIONS[name].replace("MAT", rng.choice(["True", "False"]))
        lines.append(src)
        if name == "two":
            call = "y, s = Fn.apply(x, 3.)\nout = y.sum() + s"
        elif name == "needs":
            other = rng.choice(["x.detach() + 1", "(x * 2)", "torch.ones_like(x, requires_grad=True)"])
            call = f"y = Fn.apply(x, {other})\nout = y.sum()"
        elif name == "dirty":
            call = rng.choice(["y = Fn.apply(x)", "x1 = x.clone()\ny = Fn.apply(x1)\nout = y.sum()",
                               "x1 = x * 1\nv = x1[0]\ny = Fn.apply(v)\nout = x1.sum()"])
            if "out" not in call:
                call += "\nout = y.sum()"
        elif name == "nondiff":
            call = "v, i = Fn.apply(x)\nout = v.sum()\nr = (i.requires_grad, v.requires_grad)"
        elif name == "materialize":
            call = "a, b = Fn.apply(x)\nout = a.sum()"
        else:
            call = "y = Fn.apply(x)\nout = y.sum()"
        lines.append(call)
        tail = rng.choice(["out.backward()\n(x.grad, seen)", "out.backward(create_graph=True)\nx.grad",
                           "(out, walk(out))", "torch.autograd.grad(out, x)",
                           "gg, = torch.autograd.grad(out, x, create_graph=True)\ngg.sum().backward()\n(gg, x.grad)",
                           "out.backward()\nout.backward()", "with torch.no_grad():\n    r2 = Fn.apply(x)\nmeta(r2[0] "
                           "if isinstance(r2, tuple) else r2)"])
        out = tail
        fam = f"higher:Function:{name}"
    else:
        # torch.autograd.functional
        f = rng.choice(["lambda t: t.exp()", "lambda t: (t * t).sum()", "lambda t: t.sin() * t",
                        "lambda t: t.softmax(-1)", "lambda t: (t ** 3).sum()", "lambda t: t.norm()",
                        "lambda t: t @ t.t() if t.dim() == 2 else t * t", "lambda t: t.cumsum(-1)",
                        "lambda t: (t.tanh(), t.sum())", "lambda t: t.detach()", "lambda t: torch.ones(2)",
                        "lambda t: t.logsumexp(-1).sum()", "lambda t: t.prod()"])
        lines.append(f"f = {f}")
        lines.append("x0 = x.detach()")
        fn = rng.choice([
            "torch.autograd.functional.jacobian(f, x0)", "torch.autograd.functional.jacobian(f, x0, create_graph=True)",
            "torch.autograd.functional.jacobian(f, x0, strict=True)", "torch.autograd.functional.jacobian(f, (x0,))",
            "torch.autograd.functional.jacobian(f, x0, vectorize=True)",
            "torch.autograd.functional.jacobian(f, x0, strategy='forward-mode', vectorize=True)",
            "torch.autograd.functional.hessian(lambda t: f(t).sum() if torch.is_tensor(f(t)) else f(t)[1], x0)",
            "torch.autograd.functional.hessian(f, x0)", "torch.autograd.functional.vjp(f, x0)",
            "torch.autograd.functional.vjp(f, x0, torch.ones_like(x0))",
            "torch.autograd.functional.jvp(f, x0, torch.ones_like(x0))", "torch.autograd.functional.jvp(f, x0)",
            "torch.autograd.functional.hvp(lambda t: (t ** 3).sum(), x0, torch.ones_like(x0))",
            "torch.autograd.functional.vhp(lambda t: (t.exp()).sum(), x0, torch.ones_like(x0))",
            "torch.autograd.functional.hvp(f, x0, torch.ones_like(x0))", "torch.autograd.functional.jacobian(f, x)",
            "torch.autograd.functional.jacobian(lambda a, b: a * b, (x0, x0 + 1))",
            "torch.autograd.functional.jacobian(f, [x0])", "torch.autograd.functional.jacobian(f, 3.)"])
        out = fn
        fam = "higher:functional:" + fn.split("(")[0].rsplit(".", 1)[-1]
    code = "\n".join(lines + [out])
    return Case("autograd", code, fam)


GENERATORS = {
    "ag-graph": (gen_graph, 1600),
    "ag-saved": (gen_saved, 700),
    "ag-misuse": (gen_misuse, 700),
    "ag-modes": (gen_modes, 400),
    "ag-higher": (gen_higher, 700),
}


def autograd_cases(seed=14):
    """Every case of this module, deterministic: one Random per generator."""
    cases = []
    for key, (gen, count) in GENERATORS.items():
        rng = random.Random(f"{seed}:{key}")
        for _ in range(count):
            cases.append(gen(rng, None))
    return cases
