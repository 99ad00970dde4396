"""PyTorch's TORCH_WARN_ONCE: a warning shown once per process, unless torch.set_warn_always(True).

The state sits at the bottom of the layers so that every layer (ops included) warns through the same
memory; gradlab.set_warn_always and the Tensor methods read these very objects."""
import warnings

WARNED = set()            # the once-only messages given so far
WARN_ALWAYS = [False]     # torch.set_warn_always


def warn_once(message, stacklevel=3):
    if message not in WARNED or WARN_ALWAYS[0]:
        WARNED.add(message)
        warnings.warn(message, UserWarning, stacklevel=stacklevel)
