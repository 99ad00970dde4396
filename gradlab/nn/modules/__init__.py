"""torch/nn/modules: one file per kind of layer, as in PyTorch, so that a layer's type prints PyTorch's
path (<class 'torch.nn.modules.linear.Linear'>) and pickles by it. Imports point one way: module.py
(Module) at the bottom, every other file builds on it."""
from .module import Module
from . import activation, batchnorm, container, conv, distance, dropout, flatten, instancenorm, linear, loss
from . import normalization
from . import channelshuffle, fold, padding, pixelshuffle, pooling, rnn, sparse, upsampling
from .activation import *  # noqa: F401,F403
from .batchnorm import *  # noqa: F401,F403
from .container import *  # noqa: F401,F403
from .conv import *  # noqa: F401,F403
from .distance import *  # noqa: F401,F403
from .dropout import *  # noqa: F401,F403
from .flatten import *  # noqa: F401,F403
from .instancenorm import *  # noqa: F401,F403
from .linear import *  # noqa: F401,F403
from .loss import *  # noqa: F401,F403
from .normalization import *  # noqa: F401,F403
from .channelshuffle import *  # noqa: F401,F403
from .fold import *  # noqa: F401,F403
from .pixelshuffle import *  # noqa: F401,F403
from .padding import *  # noqa: F401,F403
from .pooling import *  # noqa: F401,F403
from .rnn import *  # noqa: F401,F403
from .sparse import *  # noqa: F401,F403
from .upsampling import *  # noqa: F401,F403

# every layer, loss and container, file by file
__all__ = ["Module"] + [name for file in (linear, activation, dropout, flatten, container, loss, conv, pooling,
                                          batchnorm, instancenorm, normalization, sparse, rnn, distance, padding,
                                          upsampling, pixelshuffle, channelshuffle, fold) for name in file.__all__]

# (added after the list above: attention and the Transformer)
from . import transformer  # noqa: E402
from .transformer import *  # noqa: E402,F401,F403
__all__ += transformer.__all__
from . import adaptive  # noqa: E402
from .adaptive import *  # noqa: E402,F401,F403
__all__ += adaptive.__all__
