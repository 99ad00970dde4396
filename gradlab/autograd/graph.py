"""torch.autograd.graph: hooks on the tensors that the graph saves for backward."""
from .node import SAVED_TENSORS_HOOKS, Node  # noqa: F401  (torch.autograd.graph.Node)

__all__ = ["saved_tensors_hooks", "save_on_cpu", "Node"]


class saved_tensors_hooks:
    """Within the context, every tensor an op saves for backward is given to `pack_hook`, and what it returns
    is kept instead; backward gets the tensor back from `unpack_hook(packed)` (PyTorch's SavedVariable hooks)."""

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        SAVED_TENSORS_HOOKS.append((self.pack_hook, self.unpack_hook))
        return self

    def __exit__(self, *args):
        SAVED_TENSORS_HOOKS.pop()


class save_on_cpu(saved_tensors_hooks):
    """Saved tensors kept on the CPU: where everything is on the CPU, they are kept as they are."""

    def __init__(self, pin_memory=False, device_type="cuda"):
        super().__init__(lambda t: t, lambda t: t)

