"""gradlab.utils: what torch.utils holds that gradlab has (the handle a hook registration returns)."""
from . import checkpoint, data, hooks  # noqa: F401
