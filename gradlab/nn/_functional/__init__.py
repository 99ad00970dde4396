"""nn.functional, by topic: the files of this package are imported by gradlab/nn/functional.py.

Whichever of them is imported first, nn.functional is imported before it: the files need nn.functional
whole (as F), and nn.functional imports them all, in its order."""
from .. import functional  # noqa: F401
