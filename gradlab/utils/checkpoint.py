"""torch.utils.checkpoint: trade compute for memory. A checkpointed function keeps none of the tensors its
forward saved for backward; backward runs the function again to get them back.

Two ways, as in PyTorch:

* use_reentrant=True (the default when none is given, with PyTorch's warning): the forward runs under
  no_grad inside one custom Function, `CheckpointFunction`, whose node's inputs are the tensor arguments
  only. Its backward re-runs the function with grad on detached copies of them and calls backward inside
  backward, so parameters the function reads get their .grad from that inner backward.
* use_reentrant=False: the forward records its usual graph (AddmmBackward0, ...), but every tensor saved for
  backward is replaced by a number (saved_tensors_hooks). At the first unpack, backward re-runs the function
  once, recording what it saves, and hands the k-th of those back for the k-th number; it stops the re-run
  as soon as it has them all (early_stop).

With preserve_rng_state (default) the re-run draws the same random numbers as the forward (dropout's mask).
"""
from .. import _warnings
from ..autograd import backward as _backward
from ..autograd.function import Function
from ..autograd.grad_mode import enable_grad, no_grad
from ..autograd.graph import saved_tensors_hooks
from ..nn.modules.container import Sequential
from .._tensor_core import Tensor
from ..random.default import fork_rng, get_rng_state, set_rng_state

__all__ = ["checkpoint", "checkpoint_sequential", "CheckpointError", "noop_context_fn", "detach_variable"]

_SAY_REENTRANT = ("torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. Starting in "
                  "PyTorch 2.9, calling checkpoint without use_reentrant will raise an exception. use_reentrant=False "
                  "is recommended, but if you need to preserve the current default behavior, you can pass "
                  "use_reentrant=True. Refer to docs for more details on the differences between the two variants.")
_SAY_REENTRANT_SEQUENTIAL = (
    "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should be passed explicitly. In "
    "version 2.9 we will raise an exception if use_reentrant is not passed. use_reentrant=False is recommended, but "
    "if you need to preserve the current default behavior, you can pass use_reentrant=True. Refer to docs for more "
    "details on the differences between the two variants.")


class CheckpointError(RuntimeError):
    """The re-run saved other tensors than the forward did."""


CheckpointError.__module__ = "torch.utils.checkpoint"


def noop_context_fn():
    return _Nothing(), _Nothing()


class _Nothing:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def detach_variable(inputs):
    """Each tensor detached, keeping whether it requires grad (the re-run's fresh leaves)."""
    if not isinstance(inputs, tuple):
        raise RuntimeError(f"Only tuple of tensors is supported. Got Unsupported input type: {type(inputs).__name__}")
    out = []
    for x in inputs:
        if not isinstance(x, Tensor):
            out.append(x)
            continue
        d = x.detach()
        d.requires_grad = x.requires_grad
        out.append(d)
    return tuple(out)


def checkpoint(function, *args, use_reentrant=None, context_fn=noop_context_fn, determinism_check="default",
               debug=False, early_stop=True, preserve_rng_state=True, **kwargs):
    """function(*args, **kwargs), its saved tensors recomputed in backward instead of kept."""
    if use_reentrant is None:
        _warnings.warn(_SAY_REENTRANT, UserWarning)
        use_reentrant = True
    if use_reentrant:
        if context_fn is not noop_context_fn or debug is not False:
            raise ValueError("Passing `context_fn` or `debug` is only supported when use_reentrant=False.")
        if kwargs:
            raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
        return CheckpointFunction.apply(function, preserve_rng_state, *args)
    return _NonReentrant(function, args, kwargs, preserve_rng_state, early_stop).run()


class CheckpointFunction(Function):
    """use_reentrant=True: one node for the whole function (printed CheckpointFunctionBackward)."""

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        if not any(a.requires_grad for a in args if isinstance(a, Tensor)):
            _warnings.warn("None of the inputs have requires_grad=True. Gradients will be None", UserWarning)
        ctx.run_function = run_function
        ctx.rng_state = get_rng_state() if preserve_rng_state else None
        ctx.inputs = [None if isinstance(a, Tensor) else a for a in args]
        ctx.tensor_indices = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        ctx.save_for_backward(*[a for a in args if isinstance(a, Tensor)])
        with no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx, *grads):
        inputs = list(ctx.inputs)
        for i, t in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[i] = t
        with fork_rng(enabled=ctx.rng_state is not None):
            if ctx.rng_state is not None:
                set_rng_state(ctx.rng_state)
            detached = detach_variable(tuple(inputs))
            with enable_grad():
                outputs = ctx.run_function(*detached)
        outputs = (outputs,) if isinstance(outputs, Tensor) else outputs
        pairs = [(o, g) for o, g in zip(outputs, grads) if isinstance(o, Tensor) and o.requires_grad]
        if not pairs:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is not necessary")
        _backward([o for o, _ in pairs], [g for _, g in pairs])
        return (None, None, *[d.grad if isinstance(d, Tensor) else None for d in detached])


class _StopRecomputation(Exception):
    """Raised inside the re-run once it has saved every tensor backward needs (early_stop)."""


class _NonReentrant:
    """use_reentrant=False: the forward's saved tensors become their numbers; the first unpack re-runs."""

    def __init__(self, function, args, kwargs, preserve_rng_state, early_stop):
        self.function, self.args, self.kwargs = function, args, kwargs
        self.rng_state = get_rng_state() if preserve_rng_state else None
        self.early_stop = early_stop
        self.count = 0              # how many tensors the forward saved
        self.recomputed = None      # what the re-run saved, in the same order

    def run(self):
        with saved_tensors_hooks(self._pack, self._unpack):
            return self.function(*self.args, **self.kwargs)

    def _pack(self, tensor):
        self.count += 1
        return self.count - 1

    def _unpack(self, number):
        # each re-run value is handed out once and then dropped, as PyTorch does; a second backward through the
        # graph (retain_graph=True) re-runs the function again
        if self.recomputed is None or self.recomputed[number] is None:
            self._recompute()
        tensor, self.recomputed[number] = self.recomputed[number], None
        return tensor

    def _recompute(self):
        saved = []

        def keep(tensor):
            saved.append(tensor.detach() if tensor.requires_grad else tensor)
            if self.early_stop and len(saved) == self.count:
                raise _StopRecomputation
            return len(saved) - 1

        with fork_rng(enabled=self.rng_state is not None):
            if self.rng_state is not None:
                set_rng_state(self.rng_state)
            try:
                with enable_grad(), saved_tensors_hooks(keep, lambda n: saved[n]):
                    self.function(*detach_variable(tuple(self.args)), **self.kwargs)
            except _StopRecomputation:
                pass
        if len(saved) != self.count:
            raise CheckpointError(
                "torch.utils.checkpoint: A different number of tensors was saved during the original forward and "
                f"recomputation.\nNumber of tensors saved during forward: {self.count}\nNumber of tensors saved "
                f"during recomputation: {len(saved)}.")
        self.recomputed = saved


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):
    """A Sequential (or list of functions) run in `segments` pieces, each but the last checkpointed."""
    if use_reentrant is None:
        _warnings.warn(_SAY_REENTRANT_SEQUENTIAL, UserWarning)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    if isinstance(functions, Sequential):
        functions = list(functions.children())

    def run(start, end):
        def forward(x):
            for j in range(start, end + 1):
                x = functions[j](x)
            return x
        return forward

    size = len(functions) // segments
    end = -1
    for start in range(0, size * (segments - 1), size):
        end = start + size - 1
        input = checkpoint(run(start, end), input, use_reentrant=use_reentrant, preserve_rng_state=preserve)
    return run(end + 1, len(functions) - 1)(input)
