"""jacobian, hessian, vjp, jvp, vhp and hvp, built from reverse-mode gradients (PyTorch's recipes)."""
import numpy as np

from .._tensor_core import Tensor
from ..creation import zeros_like
from ..tensor import stack
from . import grad as autograd_grad   # (autograd/__init__.py defines grad before it imports this module)
from .grad_mode import enable_grad, is_grad_enabled, set_grad_enabled


def _as_tuple(inp, arg_name, fn_name):
    """(was it a tuple, the tuple of Tensors), with PyTorch's TypeError for anything else."""
    is_tuple = isinstance(inp, tuple)
    inp = inp if is_tuple else (inp,)
    for i, el in enumerate(inp):
        if not isinstance(el, Tensor):
            where = f"value at index {i}" if is_tuple else f"given {arg_name}"
            raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of Tensors but "
                            f"the {where} has type {type(el)}.")
    return is_tuple, inp


def _grad_preprocess(inputs, create_graph, need_graph):
    """Fresh differentiable copies of the inputs (PyTorch's helper of the same name)."""
    return tuple(inp.view_as(inp) if create_graph and inp.requires_grad else inp.detach().requires_grad_(need_graph)
                 for inp in inputs)


def _grad_postprocess(inputs, create_graph):
    return inputs if create_graph else tuple(inp.detach() for inp in inputs)


def _validate_v(v, other, is_other_tuple):
    if len(other) != len(v):
        if is_other_tuple:
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(other)} but got {len(v)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for idx, (el_v, el_other) in enumerate(zip(v, other)):
        if el_v.size() != el_other.size():
            prepend = f"Entry {idx} in " if is_other_tuple else ""
            raise RuntimeError(f"{prepend}v has invalid size: should be {el_other.size()} but got {el_v.size()}.")


def _autograd_grad(outputs, inputs, grad_outputs=None, create_graph=False):
    """autograd.grad of the outputs that require grad (None for every input when none does)."""
    grad_outputs = (None,) * len(outputs) if grad_outputs is None else grad_outputs
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    return autograd_grad([o for o, _ in pairs], inputs, [g for _, g in pairs], allow_unused=True,
                         create_graph=create_graph)


def _fill_in_zeros(grads, refs):
    return tuple(zeros_like(r) if g is None else g for g, r in zip(grads, refs))


def _unpack(res, is_tuple):
    return res if is_tuple else res[0]


def _v_or_check(v, refs, is_refs_tuple, fn_name, create_graph, what):
    if v is not None:
        _, v = _as_tuple(v, "v", fn_name)
        v = _grad_preprocess(v, create_graph, need_graph=False)
        _validate_v(v, refs, is_refs_tuple)
    elif len(refs) != 1 or refs[0].nelement() != 1:
        raise RuntimeError(f"The vector v can only be None if {what} a single Tensor with a single element.")
    return v


def _single_scalar_output(func, inputs, fn_name):
    outputs = func(*inputs)
    is_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", fn_name)
    if is_tuple:
        raise RuntimeError(f"The function given to {fn_name} should return a single Tensor")
    if outputs[0].nelement() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {fn_name} should contain a single element")
    return outputs


_STRATEGY = ('Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your function has more '
             'outputs than inputs, "forward-mode" tends to be more performant. Otherwise, prefer to use "reverse-mode".')


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    """J[i][j] has shape outputs[i].shape + inputs[j].shape (un-nested for single tensors).

    gradlab always computes it row by row with reverse-mode gradients. PyTorch's vectorize=True (vmap over a
    batch of basis vectors) and strategy='forward-mode' (vmap over jvps) give the same numbers laid out
    differently in memory: those layouts (strides, the expanded zeros of an output that does not depend on
    an input, the output's dtype in forward mode) are rebuilt here from the rows, see _batched."""
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError(_STRATEGY)
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError(
                'torch.autograd.functional.jacobian: `create_graph=True` and `strategy="forward-mode"` are not '
                'supported together (yet). Please either set `create_graph=False` or `strategy="reverse-mode"`.')
        if strict:
            raise RuntimeError(
                'torch.autograd.functional.jacobian: `strict=True` and `strategy="forward-mode"` are not supported '
                'together (yet). Please either set `strict=False` or `strategy="reverse-mode"`.')
        is_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        if not vectorize:
            raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
                                      "only implemented for `vectorize=True`.")
        forward, fn_name, arg_name = True, None, "outputs"
    else:
        is_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        forward, fn_name, arg_name = False, "jacobian", "outputs of the user-provided function"
    single_in = not is_tuple
    inputs = tuple(x.detach().requires_grad_(True) if not create_graph or not x.requires_grad else x for x in inputs)
    with enable_grad():
        outputs = func(*inputs)
    is_tuple, outputs = _as_tuple(outputs, arg_name, fn_name)
    single_out = not is_tuple
    for i, out in enumerate(outputs):
        if strict and not out.requires_grad:
            raise RuntimeError(f"Output {i} of the user-provided function does not require gradients. The outputs "
                               "must be computed in a differentiable manner from the input when running in strict mode.")
    if vectorize and strict:
        raise RuntimeError("torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are not supported "
                           "together. Please either set `strict=False` or `vectorize=False`.")
    # rows[i][j]: for each element k of outputs[i], the gradient of it with respect to inputs[j] (None: unreached)
    rows = []
    for out in outputs:
        per_input = [[] for _ in inputs]
        flat = out.reshape(-1) if out.requires_grad else None
        for k in range(out.numel()):
            if flat is None:
                grads = [None] * len(inputs)
            else:
                grads = autograd_grad(flat[k], inputs, retain_graph=True, create_graph=create_graph,
                                      allow_unused=True)
            for j, g in enumerate(grads):
                per_input[j].append(g)
        rows.append(per_input)
    if forward:
        J = _forward_layout(rows, outputs, inputs)
    elif vectorize:
        J = _reverse_layout(rows, outputs, inputs, create_graph)
    else:
        J = []
        for i, out in enumerate(outputs):
            row = []
            for j, x in enumerate(inputs):
                grads = [g if g is not None else Tensor._make(np.zeros(x._data.shape, x._data.dtype))
                         for g in rows[i][j]]
                if grads:
                    Jij = stack(grads).reshape(tuple(out.shape) + tuple(x.shape))
                else:
                    Jij = Tensor._make(np.zeros(tuple(out.shape) + tuple(x.shape), x._data.dtype))
                row.append(Jij if create_graph else Jij.detach())
            J.append(tuple(row))
    if forward:         # (PyTorch's forward mode nests lists: what its tuple post-processing leaves as they are)
        J = [list(r) for r in J]
    if single_out and single_in:
        return J[0][0]
    if single_out:
        return J[0]
    if single_in:
        return tuple(r[0] for r in J)
    return J if forward else tuple(J)


def _contiguous_strides(shape):
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step)
        step *= max(n, 1)
    return strides[::-1]


def _dense_layout(a):
    """(extent, strides in elements) of one row laid out as array a: the elements it really holds (its
    zero-stride dims counted once) and its own strides when they tile those densely (a permutation of a
    contiguous block, maybe expanded), else a contiguous block's."""
    shape = a.shape
    strides = [s // a.itemsize for s in a.strides] if a.itemsize else [0] * a.ndim
    live = sorted((s, n) for s, n in zip(strides, shape) if s != 0 and n > 1)
    step = 1
    for s, n in live:
        if s != step:
            break
        step *= n
    else:
        strides = [0 if n > 1 and s == 0 else s for s, n in zip(strides, shape)]
        return step, strides
    return int(np.prod(shape)), _contiguous_strides(shape)


def _strided(values, shape, strides, buf_size, offset=0):
    """A fresh array with these shape and strides (in elements) holding values (broadcast to shape)."""
    values = np.asarray(values)
    buf = np.zeros(max(buf_size, 1), values.dtype)
    item = buf.itemsize
    full = np.lib.stride_tricks.as_strided(buf[offset:], shape, [s * item for s in strides])
    np.copyto(full, np.broadcast_to(values, shape))     # (a zero-stride dim gets the same value again)
    if any(s == 0 and n > 1 for s, n in zip(strides, shape)):
        full = np.lib.stride_tricks.as_strided(buf[offset:], shape, [s * item for s in strides], writeable=False)
    return full


def _reverse_layout(rows, outputs, inputs, create_graph):
    """PyTorch's vectorized reverse mode: one batched vjp per input (its rows are the basis vectors of all the
    outputs, flattened), split per output and viewed as out.shape + in.shape. An input no output reaches gets
    zeros_like(input) expanded over the rows."""
    numels = [out.numel() for out in outputs]
    result = [[None] * len(inputs) for _ in outputs]
    for j, x in enumerate(inputs):
        column = [g for i in range(len(outputs)) for g in rows[i][j]]
        known = [g for g in column if g is not None]
        xa = x._data
        if not known:
            extent, inner = _dense_layout(np.empty_like(xa))
            batch, bstride = sum(numels), 0
            full = _strided(np.zeros(xa.shape, xa.dtype), (batch,) + xa.shape, [0] + inner, extent)
            pieces = None
        elif create_graph:
            zeros = Tensor._make(np.zeros(xa.shape, xa.dtype))
            batch = stack([zeros if g is None else g for g in column])
            _, inner = _dense_layout(known[0]._data)
            if 0 not in inner and inner != _contiguous_strides(xa.shape):
                # the rows' own order in memory (a transposed gradient stays transposed in PyTorch's batch)
                order = sorted(range(len(inner)), key=lambda d: -inner[d])
                back = sorted(range(len(order)), key=lambda d: order[d])
                batch = batch.permute(0, *[d + 1 for d in order]).contiguous().permute(0, *[d + 1 for d in back])
            pieces = batch.split(numels) if numels else ()
        else:
            extent, inner = _dense_layout(known[0]._data)
            values = np.stack([np.zeros(xa.shape, xa.dtype) if g is None else g._data for g in column]) \
                if column else np.zeros((0,) + xa.shape, xa.dtype)
            full = _strided(values, values.shape, [extent] + inner, extent * len(column))
            bstride = extent
            pieces = None
        start = 0
        for i, out in enumerate(outputs):
            shape = tuple(out.shape) + tuple(x.shape)
            if pieces is not None:
                result[i][j] = pieces[i].view(shape)
            else:
                part = full[start:start + numels[i]]
                if not known:
                    arr = np.lib.stride_tricks.as_strided(part, shape, (0,) * out.dim() + part.strides[1:],
                                                          writeable=False)
                else:
                    item = part.itemsize
                    arr = np.lib.stride_tricks.as_strided(
                        part, shape, [s * bstride * item for s in _contiguous_strides(tuple(out.shape))]
                        + list(part.strides[1:]))
                result[i][j] = Tensor._make(arr)
            start += numels[i]
    return [tuple(r) for r in result]


def _forward_layout(rows, outputs, inputs):
    """PyTorch's forward mode: for each output one batched jvp (its batch: the basis vectors of all the
    inputs), laid out as the output is (a tangent follows its primal) with the batch outermost, then split per
    input and moved last. An output that depends on no input gets zeros_like(output), expanded; the values
    take the output's dtype."""
    numels = [x.numel() for x in inputs]
    result = []
    for i, out in enumerate(outputs):
        oa = out._data
        extent, inner = _dense_layout(oa if out.requires_grad else np.empty_like(oa))
        bstride = extent if out.requires_grad else 0
        total = sum(numels)
        buf_size = extent * total if bstride else extent
        row = []
        start = 0
        for j, x in enumerate(inputs):
            shape = oa.shape + x._data.shape
            strides = inner + [s * bstride for s in _contiguous_strides(x._data.shape)]
            if out.requires_grad:
                vals = np.stack([np.zeros(x._data.shape, oa.dtype) if g is None else g._data.astype(oa.dtype)
                                 for g in rows[i][j]]).reshape(shape) if rows[i][j] else np.zeros(shape, oa.dtype)
            else:
                vals = np.zeros(shape, oa.dtype)
            arr = _strided(vals, shape, strides, buf_size, start * bstride)
            row.append(Tensor._make(arr))
            start += numels[j]
        result.append(tuple(row))
    return result


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy="reverse-mode"):
    """Second derivatives of a function returning a single-element tensor."""
    is_tuple, inputs_t = _as_tuple(inputs, "inputs", "hessian")
    single_in = not is_tuple

    def gradient(*xs):
        out = func(*xs)
        if strict and isinstance(out, Tensor) and not out.requires_grad:
            raise RuntimeError("Output 0 of the user-provided function does not require gradients. The outputs must be "
                               "computed in a differentiable manner from the input when running in strict mode.")
        if out.numel() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should contain a single element")
        grads = _autograd_grad((out.reshape(()),), xs, create_graph=True)     # (None: out does not depend on xs)
        for i, g in enumerate(grads):
            if strict and (g is None or not g.requires_grad):
                raise RuntimeError(
                    f"While computing the hessian, found that the jacobian of the user-provided function with respect "
                    f"to input {i} is independent of the input. This is not allowed in strict mode. You should ensure "
                    "that your function is twice differentiable and that the jacobian depends on the inputs (this would "
                    "be violated by a linear function for example).")
        # (an unreached input's zeros: PyTorch's zeros_like, which a vectorized outer jacobian sees as not
        # depending on the input (expanded zeros); row by row it is the same zeros either way)
        return tuple(g if g is not None else Tensor._make(np.zeros(x._data.shape, x._data.dtype)).requires_grad_(
            not vectorize) for g, x in zip(grads, xs))

    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')
    H = jacobian(gradient, inputs_t, create_graph=create_graph, strict=strict, vectorize=vectorize,
                 strategy=outer_jacobian_strategy)
    if single_in:
        return H[0][0]
    return H


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T J): the vector-Jacobian product, as PyTorch's (non-strict) vjp."""
    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _grad_preprocess(inputs, create_graph, need_graph=True)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "vjp")
        v = _v_or_check(v, outputs, is_outputs_tuple, "vjp", create_graph, "the user-provided function returns")
        with set_grad_enabled(True if create_graph else is_grad_enabled()):
            result = _fill_in_zeros(_autograd_grad(outputs, inputs, v, create_graph), inputs)
    return (_unpack(_grad_postprocess(outputs, create_graph), is_outputs_tuple),
            _unpack(_grad_postprocess(result, create_graph), is_inputs_tuple))


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), J v): the Jacobian-vector product, by PyTorch's double-backward trick."""
    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _grad_preprocess(inputs, create_graph, need_graph=True)
        v = _v_or_check(v, inputs, is_inputs_tuple, "jvp", create_graph, "the input to the user-provided function is")
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "jvp")
        # backward is linear in grad_outputs: their value does not matter, only their graph
        grad_outputs = tuple(zeros_like(out, requires_grad=True) for out in outputs)
        grad_inputs = _autograd_grad(outputs, inputs, grad_outputs, create_graph=True)
        result = _fill_in_zeros(_autograd_grad(grad_inputs, grad_outputs, v, create_graph), outputs)
    return (_unpack(_grad_postprocess(outputs, create_graph), is_outputs_tuple),
            _unpack(_grad_postprocess(result, create_graph), is_outputs_tuple))


def _second_order(func, inputs, v, create_graph, fn_name, trick):
    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", fn_name)
        inputs = _grad_preprocess(inputs, create_graph, need_graph=True)
        v = _v_or_check(v, inputs, is_inputs_tuple, fn_name, create_graph, "the input to the user-provided function is")
        outputs = _single_scalar_output(func, inputs, fn_name)
        jac = _autograd_grad(outputs, inputs, create_graph=True)
        if trick:           # hvp: H v through the gradient of (grad . u) with respect to u
            grad_jac = tuple(zeros_like(inp, requires_grad=True) for inp in inputs)
            jac, inputs_of_last = _autograd_grad(jac, inputs, grad_jac, create_graph=True), grad_jac
        else:
            inputs_of_last = inputs
    with set_grad_enabled(True if create_graph else is_grad_enabled()):
        result = _fill_in_zeros(_autograd_grad(jac, inputs_of_last, v, create_graph), inputs)
    return (_unpack(_grad_postprocess(outputs, create_graph), False),
            _unpack(_grad_postprocess(result, create_graph), is_inputs_tuple))


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T H) for a function returning a single-element tensor."""
    return _second_order(func, inputs, v, create_graph, "vhp", trick=False)


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), H v) for a function returning a single-element tensor."""
    return _second_order(func, inputs, v, create_graph, "hvp", trick=True)
