"""Where gradlab's warnings point, and PyTorch's TORCH_WARN_ONCE.

PyTorch's kernels warn from C++, so Python shows the warning at the user's line that called into torch. gradlab's
warnings come from Python code a few calls deep (argument checks, nn.Module.__call__, an op's kernel), so a fixed
`stacklevel` points at one of gradlab's own lines whenever the depth changes. `warn` counts the frames instead: the
warning is shown at the first frame outside the gradlab package, the student's line.

The once-only state sits at the bottom of the layers so that every layer (ops included) warns through the same
memory; gradlab.set_warn_always and the Tensor methods read these very objects."""
import os
import sys
import warnings

_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep

WARNED = set()            # the once-only messages given so far
WARN_ALWAYS = [False]     # torch.set_warn_always


def _outside_gradlab(filename):
    # (a module found through a relative sys.path entry has a relative co_filename)
    return not filename.startswith("<gradlab") and not os.path.abspath(filename).startswith(_PACKAGE)


def warn(message, category=UserWarning):
    """warnings.warn, shown at the first calling frame outside gradlab (the user's line)."""
    frame, level = sys._getframe(1), 2       # (level 1 would be this function)
    while frame is not None and not _outside_gradlab(frame.f_code.co_filename):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)


def warn_once(message):
    """PyTorch's TORCH_WARN_ONCE: shown once per process, unless torch.set_warn_always(True)."""
    if message not in WARNED or WARN_ALWAYS[0]:
        WARNED.add(message)
        warn(message)


class numpy_warnings_at_user_line:
    """`with numpy_warnings_at_user_line():` shows the warnings numpy gives inside the block (its ComplexWarning
    when float() reads a numpy complex scalar, as PyTorch also lets numpy do) at the user's line, as torch's are.
    (A class, not a contextlib generator: contextlib's own frame would be taken for the user's.)"""

    def __enter__(self):
        self._catching = warnings.catch_warnings(record=True)
        self._caught = self._catching.__enter__()
        warnings.simplefilter("always")

    def __exit__(self, *exc):
        self._catching.__exit__(*exc)
        for w in self._caught:
            warn(w.message, w.category)
