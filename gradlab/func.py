"""torch.func (functorch's transforms): grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian, linearize,
functional_call, stack_module_state and vmap, built on gradlab's reverse-mode autograd.

PyTorch gives each transform a "level": the tensors a transform differentiates are wrapped for that level,
and results come back unwrapped. Here a level is a set of fresh tensors (`_lift`): an argument that does
not require grad becomes a new leaf that does; one that does (an outer transform's, or the user's) becomes
a view of itself, so an inner transform's derivative is still a function of the outer one's variable
(grad(grad(f)) works, and a closure's x is not mistaken for the inner variable). Gradients are always
taken with create_graph=True; at the end a result keeps its graph only when that graph reaches a tensor
requiring grad from outside the transform (`_undo`), else it is detached, as PyTorch's unwrapped results.

Forward mode (jvp, jacfwd, hessian = jacfwd(jacrev)) is computed by reverse mode, with the double-vjp
trick: vjp(u) = J^T u is linear in u, so the gradient of <J^T u, v> with respect to u is J v. Its
products come out in the same order as forward mode's (v * cos(x) for sin), signed zeros included.
vmap is gradlab's loop (the same object as gradlab.vmap, as torch.func.vmap is torch.vmap).
"""
from ._tensor_core import Tensor
from ._functions.misc import vmap
from .autograd import forward_grads as _forward_grads, grad as _autograd_grad_raw
from .autograd.grad_mode import enable_grad, is_grad_enabled
from .creation import zeros_like
from .tensor import stack

__all__ = ["grad", "grad_and_value", "vmap", "hessian", "jacfwd", "jacrev", "jvp", "linearize", "vjp",
           "functional_call", "stack_module_state"]


# --- pytrees: torch.utils._pytree's flattening of tuples, lists, dicts and namedtuples ----------------
class _Spec:
    """A tree's shape without its leaves (PyTorch's TreeSpec, printed as it prints)."""

    def __init__(self, type_=None, context=None, children=()):
        self.type, self.context, self.children = type_, context, list(children)

    @property
    def num_leaves(self):
        return 1 if self.type is None else sum(c.num_leaves for c in self.children)

    def __eq__(self, other):
        return isinstance(other, _Spec) and self.type is other.type and self.context == other.context \
            and self.children == other.children

    def __repr__(self, indent=0):
        if self.type is None:
            return "*"
        text = f"TreeSpec({self.type.__name__}, {self.context}, ["
        if self.children:
            indent += 2
            text += self.children[0].__repr__(indent) + ("," if len(self.children) > 1 else "")
            text += ",".join("\n" + " " * indent + c.__repr__(indent) for c in self.children[1:])
        return text + "])"


def _is_namedtuple(x):
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


def _tree_flatten(tree):
    if _is_namedtuple(tree):
        parts = [_tree_flatten(t) for t in tree]
        return [leaf for p, _ in parts for leaf in p], _Spec(type(tree), type(tree), [s for _, s in parts])
    if type(tree) in (tuple, list):
        parts = [_tree_flatten(t) for t in tree]
        return [leaf for p, _ in parts for leaf in p], _Spec(type(tree), None, [s for _, s in parts])
    if type(tree) is dict:
        keys = list(tree)
        parts = [_tree_flatten(tree[k]) for k in keys]
        return [leaf for p, _ in parts for leaf in p], _Spec(dict, keys, [s for _, s in parts])
    return [tree], _Spec()


def _tree_unflatten(leaves, spec):
    leaves = list(leaves)

    def build(s, i):
        if s.type is None:
            return leaves[i], i + 1
        items = []
        for c in s.children:
            item, i = build(c, i)
            items.append(item)
        if s.type is dict:
            return dict(zip(s.context, items)), i
        if s.type not in (tuple, list):         # a namedtuple
            return s.type(*items), i
        return s.type(items), i
    return build(spec, 0)[0]


def _tree_map(fn, tree):
    leaves, spec = _tree_flatten(tree)
    return _tree_unflatten([fn(x) for x in leaves], spec)


class _Asterisk:
    def __repr__(self):
        return "*"


def _pprint(spec):
    return repr(_tree_unflatten([_Asterisk()] * spec.num_leaves, spec))


# --- levels: lifting the differentiated tensors, and dropping the graph a result does not need --------
def _lift(x):
    """A fresh tensor for this transform to differentiate with respect to (PyTorch's _create_differentiable)."""
    if not isinstance(x, Tensor):
        raise ValueError(f"Thing passed to transform API must be Tensor, got {type(x)}")
    if x.requires_grad:
        return x.view_as(x)
    return x.detach().requires_grad_()       # (PyTorch's error for an integer tensor)


def _reaches_outside(t, local_ids):
    """Whether t's graph reaches a leaf requiring grad that this transform did not make."""
    if not t.requires_grad:
        return False
    if t.grad_fn is None:
        return id(t) not in local_ids
    seen, todo = set(), [t.grad_fn]
    while todo:
        node = todo.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if type(node).__name__ == "AccumulateGrad":
            if id(node.variable) not in local_ids:
                return True
            continue
        todo.extend(fn for fn, _ in node.next_functions)
    return False


def _undo(tree, local_ids, outer_grad):
    """The results as the caller's level sees them (PyTorch's _undo_create_differentiable)."""
    def undo(t):
        if isinstance(t, Tensor) and t.requires_grad and not (outer_grad and _reaches_outside(t, local_ids)):
            return t.detach()
        return t
    return _tree_map(undo, tree)


def _autograd_grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=True):
    """functorch's helper: outputs that need no grad are skipped; an unreached input gets zeros. (The graph is
    kept with create_graph: an outer transform's part of it is still to be differentiated.)"""
    if grad_outputs is None:
        pairs = [(o, None) for o in outputs if o.requires_grad]
    else:
        pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o.requires_grad]
    if not pairs:
        return tuple(zeros_like(inp) for inp in inputs)
    grads = _autograd_grad_raw(tuple(o for o, _ in pairs), tuple(inputs),
                               None if grad_outputs is None else tuple(g for _, g in pairs),
                               retain_graph=retain_graph, create_graph=create_graph, allow_unused=True)
    return tuple(zeros_like(inp) if g is None else g for g, inp in zip(grads, inputs))


# --- argnums --------------------------------------------------------------------------------------------
def _wrap_argnum(argnum, num_args):
    if not isinstance(argnum, int):
        raise RuntimeError(f"argnum must be int, got: {type(argnum)}")
    if 0 <= argnum < num_args:
        return argnum
    if -num_args <= argnum < 0:
        return argnum + num_args
    raise RuntimeError(f"Got argnum={argnum}, but only {num_args} positional inputs")


def _slice_argnums(args, argnums, as_tuple=True):
    if not isinstance(argnums, (int, tuple)):
        raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
    if isinstance(argnums, int):
        argnums = _wrap_argnum(argnums, len(args))
        return (args[argnums],) if as_tuple else args[argnums]
    argnums = tuple(_wrap_argnum(a, len(args)) for a in argnums)
    if len(argnums) == 0:
        raise RuntimeError("argnums must be non-empty")
    if len(set(argnums)) != len(argnums):
        raise RuntimeError(f"argnums elements must be unique, got {argnums}")
    return tuple(args[i] for i in argnums)


def _replace_args(old_args, new_args, argnums):
    """old_args with the argnums arguments replaced by new_args (a tuple, of one for an int argnums). As
    PyTorch's, it compares positions with argnums as given: jvp and jacfwd with a negative argnum replace
    nothing (their output then does not depend on the tangents); grad and vjp pass wrapped argnums."""
    if isinstance(argnums, int):
        return tuple(new_args[0] if i == argnums else a for i, a in enumerate(old_args))
    return tuple(new_args[argnums.index(i)] if i in argnums else a for i, a in enumerate(old_args))


def _wrapped_argnums(argnums, num_args):
    if isinstance(argnums, int):
        return _wrap_argnum(argnums, num_args)
    return tuple(_wrap_argnum(a, num_args) for a in argnums)


def _named(wrapper, func):
    for attr in ("__module__", "__name__", "__qualname__", "__doc__"):
        if hasattr(func, attr):
            try:
                setattr(wrapper, attr, getattr(func, attr))
            except (AttributeError, TypeError):
                pass
    wrapper.__wrapped__ = func
    return wrapper


# --- grad, grad_and_value -------------------------------------------------------------------------------
def grad_and_value(func, argnums=0, has_aux=False):
    """A function returning (the gradient of func with respect to the argnums arguments, func's value)."""
    def wrapper(*args, **kwargs):
        outer = is_grad_enabled()
        with enable_grad():
            args, diff_args = _lift_argnums(args, argnums)
            output = func(*args, **kwargs)
            aux = None
            if has_aux:
                output, aux = _split_aux(output, "grad_and_value(f)(*args)")
            if not isinstance(output, Tensor):
                raise RuntimeError(f"grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got "
                                   f"{type(output)}")
            if output.dim() != 0:
                raise RuntimeError("grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got "
                                   f"tensor with {output.dim()} dims. Maybe you wanted to use the vjp or jacrev "
                                   "APIs instead?")
            flat_diff, spec = _tree_flatten(diff_args)
            grads = _tree_unflatten(_autograd_grad((output,), flat_diff, create_graph=True), spec)
            local = {id(t) for t in flat_diff}
            grads, output = _undo(grads, local, outer), _undo(output, local, outer)
            if has_aux:
                return grads, (output, _undo(aux, local, outer))
            return grads, output
    return _named(wrapper, func)


def grad(func, argnums=0, has_aux=False):
    """A function returning the gradient of func (a function returning a 0-d tensor) at its arguments."""
    g_and_v = grad_and_value(func, argnums, has_aux)

    def wrapper(*args, **kwargs):
        results = g_and_v(*args, **kwargs)
        if has_aux:
            grads, (_, aux) = results
            return grads, aux
        return results[0]
    return _named(wrapper, func)


def _lift_argnums(args, argnums):
    """(args with those argnums names replaced by this level's fresh tensors, those tensors)."""
    lifted = _tree_map(_lift, _slice_argnums(args, argnums, as_tuple=False))
    args = _replace_args(args, (lifted,) if isinstance(argnums, int) else lifted, _wrapped_argnums(argnums, len(args)))
    return args, lifted


def _split_aux(output, where):
    """(output, aux) of a function transformed with has_aux=True, or torch.func's error."""
    if not (isinstance(output, tuple) and len(output) == 2):
        raise RuntimeError(f"{where}: output of function f should be a tuple: (output, aux) if has_aux is True")
    return output


# --- vjp, jacrev ----------------------------------------------------------------------------------------
def vjp(func, *primals, has_aux=False):
    """(func(*primals), vjp_fn[, aux]): vjp_fn(cotangents) is the vector-Jacobian product at primals."""
    return _vjp_with_argnums(func, *primals, has_aux=has_aux)


def _vjp_with_argnums(func, *primals, argnums=None, has_aux=False):
    outer = is_grad_enabled()
    with enable_grad():
        if argnums is None:
            diff_primals = _tree_map(_lift, primals)
            primals = diff_primals
        else:
            primals, diff_primals = _lift_argnums(primals, argnums)
        primals_out = func(*primals)
        flat_diff, primals_spec = _tree_flatten(diff_primals)
        local = {id(t) for t in flat_diff}
        aux = None
        if has_aux:
            primals_out, aux = _split_aux(primals_out, "vjp(f, *primals)")
            aux = _undo(aux, local, outer)
        flat_out, out_spec = _tree_flatten(primals_out)
        _assert_non_empty_tensor_output(flat_out, "vjp(f, *primals)")
        results = _undo(primals_out, local, outer)
        for o in flat_out:
            if not (o.is_floating_point() or o.is_complex()):
                raise RuntimeError("vjp(f, ...): All outputs of f must be floating-point or complex Tensors, got "
                                   f"Tensor with dtype {o.dtype}")

    def vjp_fn(cotangents, retain_graph=True, create_graph=None):
        if create_graph is None:
            create_graph = is_grad_enabled()
        flat_cot, cot_spec = _tree_flatten(cotangents)
        if cot_spec != out_spec:
            raise RuntimeError("Expected pytree structure of cotangents to be the same as pytree structure of "
                               f"outputs to the function. cotangents: {_pprint(cot_spec)}, primal output: "
                               f"{_pprint(out_spec)}")
        with enable_grad():
            result = _autograd_grad(flat_out, flat_diff, flat_cot, retain_graph=retain_graph,
                                    create_graph=create_graph)
        return _undo(_tree_unflatten(result, primals_spec), local, is_grad_enabled())

    if has_aux:
        return results, vjp_fn, aux
    return results, vjp_fn


def _assert_non_empty_tensor_output(output, api):
    if (len(output) == 1 and output[0] is None) or len(output) < 1:
        raise RuntimeError(f"{api}: Expected f to be a function that has non-empty output (got output = {output})")
    for o in output:
        if not isinstance(o, Tensor):
            raise RuntimeError(f"{api}: expected f(*primals) to return only tensors, got unsupported type {type(o)}")


def _error_if_complex(func_name, args, is_input):
    for idx, arg in enumerate(_tree_flatten(args)[0]):
        if isinstance(arg, Tensor) and arg.dtype.is_complex:
            what = "inputs" if is_input else "outputs"
            raise RuntimeError(f"{func_name}: Expected all {what} to be real but received complex tensor at "
                               f"flattened input idx: {idx}")


def _basis_rows(tensors):
    """The rows of the identity over all the tensors' elements, each split into one tensor per tensor (the
    standard basis PyTorch's jacrev and jacfwd push through vjp and jvp)."""
    numels = [t.numel() for t in tensors]
    total = sum(numels)
    for k in range(total):
        row, start = [], 0
        for t, n in zip(tensors, numels):
            e = t.new_zeros(n) if not t.requires_grad else t.detach().new_zeros(n)
            if start <= k < start + n:
                e[k - start] = 1
            row.append(e.view(t.shape))
            start += n
        yield row


def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None, _preallocate_and_copy=False):
    """The Jacobian of func with respect to the argnums arguments, by reverse mode (one vjp per output element:
    PyTorch batches them with vmap; here they run one after another)."""
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError("jacrev: `chunk_size` should be greater than 0.")

    def wrapper(*args):
        _error_if_complex("jacrev", args, is_input=True)
        vjp_out = _vjp_with_argnums(func, *args, argnums=argnums, has_aux=has_aux)
        if has_aux:
            output, vjp_fn, aux = vjp_out
        else:
            output, vjp_fn = vjp_out
        flat_output, output_spec = _tree_flatten(output)
        _error_if_complex("jacrev", flat_output, is_input=False)
        numels = [out.numel() for out in flat_output]
        flat_primals, primals_spec = _tree_flatten(_slice_argnums(args, argnums))
        rows = [_tree_flatten(vjp_fn(_tree_unflatten(row, output_spec)))[0] for row in _basis_rows(flat_output)]
        per_input = []
        for j, primal in enumerate(flat_primals):
            if rows:
                stacked = stack([r[j] for r in rows])
            else:
                stacked = primal.new_zeros((0,) + tuple(primal.shape))
            per_input.append(tuple(split.view(tuple(out.shape) + tuple(primal.shape))
                                   for split, out in zip(stacked.split(numels, 0), flat_output)))
        flat_output_input = tuple(_tree_unflatten(list(ins), primals_spec) for ins in zip(*per_input))
        if isinstance(argnums, int):
            flat_output_input = tuple(ins[0] for ins in flat_output_input)
        result = _tree_unflatten(list(flat_output_input), output_spec)
        return (result, aux) if has_aux else result
    return _named(wrapper, func)


# --- jvp, jacfwd, hessian, linearize --------------------------------------------------------------------
_JVP = "jvp(f, primals, tangents)"


def _assert_tensors(items, argname):
    if len(items) == 0:
        raise RuntimeError(f"{_JVP}: Expected {argname} to contain at least one Tensor.")
    for t in items:
        if not isinstance(t, Tensor):
            raise RuntimeError(f"{_JVP}: Expected {argname} to only contain Tensors, got {type(t)}")


def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    """(func(*primals), the Jacobian-vector product J tangents[, aux]), forward mode's result computed by
    reverse mode (the double-vjp trick: see this module's docstring)."""
    return _jvp_with_argnums(func, primals, tangents, argnums=None, strict=strict, has_aux=has_aux)


def _jvp_with_argnums(func, primals, tangents, argnums, *, strict=False, has_aux=False):
    if _forward_grads.LEVEL[0] >= 0:      # (PyTorch's jvp enters a dual level of its own: only one may exist)
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    if not isinstance(primals, tuple):
        raise RuntimeError(f"{_JVP}: Expected primals to be a tuple. E.g. it should be valid to call f(*primals).")
    diff_args = primals if argnums is None else _slice_argnums(primals, argnums)
    flat_primals, primals_spec = _tree_flatten(diff_args)
    flat_tangents, tangents_spec = _tree_flatten(tangents)
    if primals_spec != tangents_spec:
        raise RuntimeError(f"{_JVP}: Expected primals and tangents to have the same python structure. For "
                           "example, if primals is a tuple of 3 tensors, tangents also must be. Got primals with "
                           f"structure {primals_spec!r} and tangents with structure {tangents_spec!r}")
    _assert_tensors(flat_primals, "primals")
    _assert_tensors(flat_tangents, "tangents")
    for p, t in zip(flat_primals, flat_tangents):       # (fwAD.make_dual's checks)
        if not (p.is_floating_point() or p.is_complex()):
            raise ValueError(f"Expected primal to be floating point or complex, but got: {p.dtype}")
        if not (t.is_floating_point() or t.is_complex()):
            raise ValueError(f"Expected tangent to be floating point or complex, but got: {t.dtype}")
        if tuple(t.shape) != tuple(p.shape):
            raise RuntimeError("Trying to set a forward gradient that has a different size than that of the original "
                               f"Tensor, this is not supported. Tensor is of size {list(p.shape)} while the given "
                               f"forward gradient is of size {list(t.shape)}.")
    outer = is_grad_enabled()
    with enable_grad():
        lifted = [_lift(p) for p in flat_primals]
        duals = _tree_unflatten(lifted, primals_spec)
        args = duals if argnums is None else _replace_args(primals, duals, argnums)
        result = func(*args)
        local = {id(t) for t in lifted}
        aux = None
        if has_aux:
            result, aux = _split_aux(result, _JVP)
            aux = _undo(aux, local, outer)
        flat_out, spec = _tree_flatten(result)
        _assert_non_empty_tensor_output(flat_out, _JVP)
        tangents_out = _double_vjp(flat_out, lifted, [t.to(p.dtype) for t, p in zip(flat_tangents, flat_primals)],
                                   local)
        for i, t in enumerate(tangents_out):
            if t is None:
                if strict:
                    raise RuntimeError("jvp(f, primals, tangents, strict=True): The output of f is independent of "
                                       "the inputs. This is not allowed with strict=True.")
                tangents_out[i] = zeros_like(flat_out[i])
        primals_out = _tree_unflatten(list(_undo(tuple(flat_out), local, outer)), spec)
        tangents_out = _tree_unflatten(list(_undo(tuple(tangents_out), local, outer)), spec)
    if has_aux:
        return primals_out, tangents_out, aux
    return primals_out, tangents_out


def _double_vjp(outputs, inputs, tangents, local):
    """J v for each output (None where the output does not depend on the inputs): u -> J^T u is linear, and
    the gradient of <J^T u, v> with respect to u is J v. The u's are zeros: only their graph matters."""
    us = {i: zeros_like(o, requires_grad=True) for i, o in enumerate(outputs)
          if o.requires_grad and (o.is_floating_point() or o.is_complex())}
    result = [None] * len(outputs)
    if not us:
        return result
    local.update(id(u) for u in us.values())
    idx = list(us)
    vjps = _autograd_grad_raw(tuple(outputs[i] for i in idx), tuple(inputs), tuple(us[i] for i in idx),
                              create_graph=True, allow_unused=True)
    reached = [(g, v) for g, v in zip(vjps, tangents) if g is not None and g.requires_grad]
    if not reached:
        return result
    jv = _autograd_grad_raw(tuple(g for g, _ in reached), tuple(us[i] for i in idx), tuple(v for _, v in reached),
                            create_graph=True, allow_unused=True)
    for i, t in zip(idx, jv):
        result[i] = t
    return result


def jacfwd(func, argnums=0, has_aux=False, *, randomness="error"):
    """The Jacobian of func with respect to the argnums arguments, one jvp per input element (forward mode
    computed by reverse mode: see jvp)."""
    def wrapper(*args):
        if randomness not in ("error", "different", "same"):
            raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or 'same'. Got "
                               f"{randomness}")
        _error_if_complex("jacfwd", args, is_input=True)
        primals = args if argnums is None else _slice_argnums(args, argnums)
        flat_primals, primals_spec = _tree_flatten(primals)
        numels = [p.numel() for p in flat_primals]
        columns, aux = [], None
        for row in _basis_rows(flat_primals):
            output = _jvp_with_argnums(func, args, _tree_unflatten(row, primals_spec), argnums=argnums,
                                       has_aux=has_aux)
            _error_if_complex("jacfwd", output[0], is_input=False)
            if has_aux and aux is None:
                aux = output[2]
            columns.append(output[1])
        flat_cols = [_tree_flatten(c)[0] for c in columns]
        spec = _tree_flatten(columns[0])[1]
        jac_outs = [stack([c[i] for c in flat_cols]) for i in range(len(flat_cols[0]))]
        jac_outs_ins = tuple(
            tuple(_safe_unflatten(piece, -1, primal.shape)
                  for primal, piece in zip(flat_primals, jac.movedim(0, -1).split(numels, -1)))
            for jac in jac_outs)
        jac_outs_ins = tuple(_tree_unflatten(list(ins), primals_spec) for ins in jac_outs_ins)
        if isinstance(argnums, int):
            jac_outs_ins = tuple(ins[0] for ins in jac_outs_ins)
        result = _tree_unflatten(list(jac_outs_ins), spec)
        return (result, aux) if has_aux else result
    return _named(wrapper, func)


def _safe_unflatten(tensor, dim, shape):
    if len(shape) == 0:
        return tensor.squeeze(dim)
    return tensor.unflatten(dim, shape)


def hessian(func, argnums=0):
    """The Hessian of func: jacfwd(jacrev(func, argnums), argnums), PyTorch's forward-over-reverse."""
    return jacfwd(jacrev(func, argnums), argnums)


def linearize(func, *primals):
    """(func(*primals), jvp_fn): jvp_fn(*tangents) is the Jacobian-vector product at primals. PyTorch traces
    func once; here each jvp_fn call runs jvp again, with the same values."""
    output = _undo(func(*primals), set(), is_grad_enabled())
    flat_primals, primals_spec = _tree_flatten(primals)
    flat_out, out_spec = _tree_flatten(output)

    def jvp_fn(*tangents):
        flat_tangents, tangents_spec = _tree_flatten(tangents)
        if tangents_spec != primals_spec:
            raise RuntimeError(f"Expected the tangents {tangents_spec!r} to have the same argspec as the primals "
                               f"{primals_spec!r}")
        for idx, (t, p) in enumerate(zip(flat_tangents, flat_primals)):
            for what, a, b in (("shape", t.shape, p.shape), ("device", t.device, p.device),
                               ("dtype", t.dtype, p.dtype)):
                if a != b:
                    raise RuntimeError(f"tangent:{idx} with {what} {a} in flattened pytree doesn't match the "
                                       f"{what} {b} of the corresponding primal.")
        return _jvp_with_argnums(func, primals, tangents, argnums=None)[1]
    return output, jvp_fn


# --- functional_call, stack_module_state ----------------------------------------------------------------
_MISSING = object()


def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *, tie_weights=True, strict=False):
    """module(*args, **kwargs) with its parameters and buffers replaced by the dicts' tensors for the call."""
    if isinstance(parameter_and_buffer_dicts, dict):
        parameters_and_buffers = parameter_and_buffer_dicts
    elif isinstance(parameter_and_buffer_dicts, (list, tuple)):
        if not all(isinstance(d, dict) for d in parameter_and_buffer_dicts):
            raise ValueError("Expected all elements of parameter_and_buffer_dicts to be dictionaries")
        counts = {}
        for d in parameter_and_buffer_dicts:
            for k in d:
                counts[k] = counts.get(k, 0) + 1
        repeated = [k for k, n in counts.items() if n > 1]
        if repeated:
            raise ValueError(f"{repeated} appeared in multiple dictionaries; behavior of functional call is ambiguous")
        parameters_and_buffers = {k: v for d in parameter_and_buffer_dicts for k, v in d.items()}
    else:
        raise ValueError("Expected parameter_and_buffer_dicts to be a dict, or a list/tuple of dicts, but got "
                         f"{type(parameter_and_buffer_dicts)}")
    if kwargs is None:
        kwargs = {}
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    named = dict(module.named_parameters(remove_duplicate=False))
    named.update(module.named_buffers(remove_duplicate=False))
    given = _untie(named, parameters_and_buffers) if tie_weights else parameters_and_buffers
    if strict:
        missing, unexpected = sorted(set(named) - set(given)), sorted(set(given) - set(named))
        msgs = []
        if unexpected:
            msgs.append(f"Unexpected key(s): {', '.join(map(repr, unexpected))}.")
        if missing:
            msgs.append(f"Missing key(s): {', '.join(map(repr, missing))}.")
        if msgs:
            raise RuntimeError("Error(s) in reparametrizing for {}:\n\t{}".format(module._get_name(),
                                                                              "\n\t".join(msgs)))
    originals = {}
    try:
        for name, tensor in given.items():
            originals[name] = _swap_tensor(module, name, tensor)
        return module(*args, **kwargs)
    finally:
        new = {name: _swap_tensor(module, name, t) for name, t in originals.items()}
        # (a module that replaced its own tensors in place: the caller's dict gets the new ones)
        parameters_and_buffers.update({k: new[k] for k in parameters_and_buffers if k in new})


def _untie(named, given):
    """torch.nn.utils.stateless._untie_named_tensors_map: a value given for one of tied names goes to all."""
    names_of = {}
    for name, t in named.items():
        names_of.setdefault(id(t), set()).add(name)
    tied = {n: names for names in names_of.values() if len(names) > 1 for n in names}
    given_tied = {n for n in given if n in tied}
    for n in given_tied:
        names = tied[n]
        if len(names & given_tied) > 1 and len({id(given[m]) for m in names if m in given}) != 1:
            raise ValueError(f"functional_call got multiple values for keys {sorted(names)}, which are tied. "
                             "Consider using tie_weights=False")
    out = dict(given)
    for n in given_tied:
        for m in tied[n]:
            out[m] = given[n]
    return out


def _swap_tensor(owner, name, tensor):
    """NamedMemberAccessor.swap_tensor(name, tensor, allow_missing=True): the tensor it replaced."""
    prefix, _, attr = name.rpartition(".")
    for part in prefix.split(".") if prefix else ():
        try:
            sub = getattr(owner, part)
        except AttributeError:
            raise AttributeError(f"{owner._get_name()} has no attribute `{part}`") from None
        if not hasattr(sub, "_parameters"):
            raise TypeError(f"submodule `{prefix}`: {sub} is not an instance of torch.nn.Module")
        owner = sub
    if tensor is not _MISSING and not isinstance(tensor, Tensor) and tensor is not None:
        raise TypeError(f"{tensor} is not an instance of torch.Tensor")
    if attr in owner._parameters:
        orig = owner._parameters[attr]
        if tensor is _MISSING:
            del owner._parameters[attr]
        else:
            owner._parameters[attr] = tensor
    elif attr in owner._buffers:
        orig = owner._buffers[attr]
        if tensor is _MISSING:
            del owner._buffers[attr]
        else:
            owner._buffers[attr] = tensor
    else:
        orig = getattr(owner, attr) if hasattr(owner, attr) else _MISSING
        if orig is not _MISSING and not isinstance(orig, Tensor) and orig is not None:
            raise TypeError(f"attribute `{attr}`: {orig} is not an instance of torch.Tensor")
        if tensor is not _MISSING:
            setattr(owner, attr, tensor)
        elif hasattr(owner, attr):
            delattr(owner, attr)
    return orig


def stack_module_state(models):
    """(params, buffers): each name's tensors of the models stacked along a new first dim, for vmap."""
    if len(models) == 0:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or all(not m.training for m in models)):
        raise RuntimeError("stack_module_state: Expected all models to have the same training/eval mode.")
    if not all(type(m) is type(models[0]) for m in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")

    def stacked_leaf(tensors, name):
        all_rg = all(t.requires_grad for t in tensors)
        if not all_rg and any(t.requires_grad for t in tensors):
            raise RuntimeError(f"Expected {name} from each model to have the same .requires_grad")
        result = stack(tensors)
        return result.detach().requires_grad_() if all_rg else result

    all_params = [dict(m.named_parameters()) for m in models]
    params = {k: stacked_leaf(tuple(p[k] for p in all_params), k) for k in all_params[0]}
    all_buffers = [dict(m.named_buffers()) for m in models]
    buffers = {k: stacked_leaf(tuple(b[k] for b in all_buffers), k) for k in all_buffers[0]}
    return params, buffers
