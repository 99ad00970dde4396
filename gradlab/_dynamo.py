"""What `torch.compile` does to autograd, without a compiler: a compiled call's outputs come from one node.

PyTorch's compiler (TorchDynamo + AOTAutograd) turns the whole forward of a compiled function or module into
one autograd Function, `CompiledFunction`, so its outputs print `grad_fn=<CompiledFunctionBackward>` and that
one node's next_functions are the tensors the forward read (the parameters, the inputs, tensors it captured).
gradlab runs the forward as usual, then hides the graph it recorded behind such a node: backward through the
node is a backward through the hidden graph down to those tensors. The values are gradlab's usual ones (the
compiler's fused kernels may differ from PyTorch's own eager ones in the last bit).

Not reproduced: the order of that node's next_functions (TorchDynamo's order of its graph's inputs); a tensor
argument the function never reads still gets an empty edge here (PyTorch's compiler leaves it out); and
PyTorch's refusal of retain_graph when its compiled backward donates buffers.
"""
from ._tensor_core import Tensor
from .autograd import grad as _autograd_grad
from .autograd.function import Function
from .autograd.grad_mode import _state as _grad_state
from .autograd.node import AccumulateGrad, _sequence

MODES = ("default", "lite", "reduce-overhead", "max-autotune-no-cudagraphs", "max-autotune")
# torch._dynamo.list_backends(None): the names torch.compile accepts
BACKENDS = ("aot_eager", "aot_eager_decomp_partition", "aot_eager_decomp_partition_crossref",
            "aot_eager_decomp_partition_with_mode", "aot_eager_default_partitioner", "aot_ts", "cudagraphs",
            "dynamo_accuracy_minifier_backend", "dynamo_minifier_backend", "eager", "eager_debug", "eager_noexcept",
            "inductor", "invoke_subgraph", "openxla", "openxla_eval", "pre_dispatch_eager", "ts", "tvm")
# the backends that run the forward as it is written, each op recording its own node (no AOTAutograd)
EAGER_BACKENDS = ("eager", "eager_debug", "eager_noexcept", "pre_dispatch_eager")


def list_backends(exclude_tags=("debug", "experimental")):
    """torch._dynamo.list_backends: the backends a CPU build lists."""
    if exclude_tags is None:
        return list(BACKENDS)
    return ["cudagraphs", "inductor", "openxla", "tvm"]


def reset():
    """torch._dynamo.reset (torch.compiler.reset): forget compiled code. gradlab keeps none."""


class InvalidBackend(RuntimeError):
    """torch._dynamo.exc.InvalidBackend (a RuntimeError)."""

    def __init__(self, name):
        super().__init__(f"Invalid backend: {name!r}, see `torch._dynamo.list_backends()` for available backends.")


InvalidBackend.__module__ = "torch._dynamo.exc"


def check_arguments(backend, mode, options):
    """torch.compile's checks of its arguments, in its order."""
    if mode is not None and options is not None:
        raise RuntimeError("Either mode or options can be specified, but both can't be specified at the same time.")
    if mode is not None and mode not in MODES:
        raise RuntimeError(f"Unrecognized mode={mode}, should be one of: {', '.join(MODES)}")
    if isinstance(backend, str) and backend not in BACKENDS:
        raise InvalidBackend(backend)


def backend_of(*, fullgraph=False, dynamic=None, backend=None, mode=None, options=None, name=None, disable=False,
               recompile_limit=None, isolate_recompiles=False, shapes_spec=None):
    """torch.compile's keyword arguments checked; the backend's name (or the function given as backend)."""
    check_arguments(backend, mode, options)
    return "inductor" if backend is None else backend


def run_compiled(fn, backend, args, kwargs):
    """fn(*args, **kwargs) as torch.compile(fn, backend=backend) runs it: the same results, which come from one
    CompiledFunction node when they are in a graph (not for the eager backends, nor a backend given as a
    function: gradlab has no graph of Python code to hand it)."""
    if not _grad_state["enabled"] or not isinstance(backend, str) or backend in EAGER_BACKENDS:
        return fn(*args, **kwargs)
    start = next(_sequence)             # nodes numbered from here on were recorded by this call
    result = fn(*args, **kwargs)
    # the compiled graph's other inputs: tensors given that require no grad, and a module's buffers
    # (its node has an empty edge, (None, 0), for each)
    module = getattr(fn, "__self__", fn)
    others = [t for t in (*args, *kwargs.values()) if isinstance(t, Tensor) and not t.requires_grad]
    if hasattr(module, "buffers"):
        others += [b for b in module.buffers() if not b.requires_grad]
    return _behind_one_node(result, start, others)


class CompiledFunction(Function):
    """AOTAutograd's Function: forward gives the hidden graph's outputs, backward differentiates that graph
    down to the tensors it read (boundary: its inputs here, saved, so a second backward without retain_graph
    raises PyTorch's error)."""

    @staticmethod
    def forward(ctx, outputs, *boundary):
        ctx.outputs = outputs
        ctx.save_for_backward(*boundary)
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    @staticmethod
    def backward(ctx, *grads):
        boundary = ctx.saved_tensors
        wanted = [i for i, t in enumerate(boundary) if t.requires_grad]
        pairs = [(o, g) for o, g in zip(ctx.outputs, grads) if g is not None]
        found = _autograd_grad([o for o, _ in pairs], [boundary[i] for i in wanted], [g for _, g in pairs],
                               retain_graph=True, create_graph=_grad_state["enabled"], allow_unused=True)
        result = [None] * len(boundary)
        for i, g in zip(wanted, found):
            result[i] = g
        return (None, *result)


def _behind_one_node(result, start, others=()):
    """The result with its tensors' recorded graph (the nodes numbered start or later) behind one
    CompiledFunction node; unchanged when no tensor of it has such a graph, or when the hidden graph reads
    a tensor whose own graph reaches another tensor it reads (that gradient would be counted twice)."""
    if isinstance(result, Tensor):
        leaves, rebuild = [result], lambda new: new[0]
    elif isinstance(result, (tuple, list)) and all(isinstance(r, Tensor) or r is None for r in result):
        leaves = list(result)

        def rebuild(new):
            return type(result)(new) if type(result) in (tuple, list) else type(result)(*new)
    else:
        return result
    inner = [i for i, t in enumerate(leaves) if t is not None and t.grad_fn is not None
             and t.grad_fn._sequence_nr >= start and t._data.dtype.kind in "fc"]
    if not inner:
        return result
    boundary = _boundary([leaves[i] for i in inner], start)
    if boundary is None:
        return result
    outputs = CompiledFunction.apply([leaves[i] for i in inner], *boundary, *others)
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    new = list(leaves)
    for i, o in zip(inner, outputs):
        new[i] = o
    return rebuild(new)


def _boundary(outputs, start):
    """The tensors the hidden graph reads, in the order the forward first read them (PyTorch's order of the
    compiled graph's inputs): leaves through their AccumulateGrad, other tensors through their node and output
    number. None when one can not be found, or one's graph reaches another (see _behind_one_node)."""
    inner, stack, seen = [], [t.grad_fn for t in outputs], set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        inner.append(node)
        for child, _ in node.next_functions:
            if child is not None and not isinstance(child, AccumulateGrad) and child._sequence_nr >= start:
                stack.append(child)
    inner.sort(key=lambda n: n._sequence_nr)
    edges = []
    for node in inner:
        for child, nr in node.next_functions:
            if child is not None and (isinstance(child, AccumulateGrad) or child._sequence_nr < start) \
                    and (child, nr) not in edges:
                edges.append((child, nr))
    tensors = []
    for child, nr in edges:
        if isinstance(child, AccumulateGrad):
            tensors.append(child.variable)
            continue
        refs = child._outputs
        t = refs[nr]() if nr < len(refs) else None
        if t is None or t.grad_fn is not child:
            return None
        tensors.append(t)
    if any(e[0] is not None and not isinstance(e[0], AccumulateGrad) for e in edges) and _reaches_another(edges):
        return None
    return tensors


def _reaches_another(edges):
    """Whether the graph above one boundary node reaches another boundary edge."""
    targets = set(edges)
    for child, _ in edges:
        if isinstance(child, AccumulateGrad):
            continue
        stack, seen = [child], set()
        while stack:
            node = stack.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            for edge in node.next_functions:
                if edge[0] is None:
                    continue
                if edge in targets:
                    return True
                stack.append(edge[0])
    return False
