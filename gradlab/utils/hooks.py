"""gradlab.utils.hooks: the handle `register_hook` returns (torch.utils.hooks.RemovableHandle)."""
from ..autograd.node import RemovableHandle  # noqa: F401
