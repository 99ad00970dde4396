"""The op table. Importing this package registers every op in `registry.OPS`."""
import warnings

import numpy as np

from . import registry  # noqa: F401
from . import arithmetic, unary, activation, compare, conversion, elementwise  # noqa: F401
from . import reduction, shape, linalg, nn, inplace, indexing  # noqa: F401
from . import matrix, sorting, scatter, conv, normalization, complex  # noqa: F401
from . import upsample  # noqa: F401
from . import sampling  # noqa: F401
from . import spectral  # noqa: F401  (the FFTs of stft and istft)
from .registry import OPS  # noqa: F401

# numpy warns on overflow or division by zero (exp(1000) -> inf, 1/0 -> inf); PyTorch does not.
# Ignore numpy's RuntimeWarnings raised from gradlab's own code only: a user's own numpy code keeps
# its warnings. (A filter costs nothing until a warning is raised; np.errstate costs ~3 us per op.)
warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"gradlab(\.|$)")
# The filter above is bypassed by `warnings.simplefilter("always")` (what a test recording warnings
# does), so numpy is also told not to check floating-point errors at all: zero cost per op, but it is
# process-wide, so a user's own numpy code no longer warns on 1/0 either (the price of torch's silence).
np.seterr(all="ignore")
from . import ctc  # noqa: F401,E402  (the CTC loss)
from . import packed_sequence  # noqa: F401,E402  (nn.utils.rnn's pack_padded_sequence)
