"""gradlab.optim: optimizers with PyTorch's API, update formulas and printed text, and lr_scheduler."""
from ._adafactor import Adafactor
from .adam import Adam, AdamW
from .lbfgs import LBFGS
from .optimizer import Optimizer
from .sgd import SGD
from . import adadelta, adagrad, adamax, asgd, nadam, radam, rmsprop, rprop
from .adadelta import *  # noqa: F401,F403
from .adagrad import *  # noqa: F401,F403
from .adamax import *  # noqa: F401,F403
from .asgd import *  # noqa: F401,F403
from .nadam import *  # noqa: F401,F403
from .radam import *  # noqa: F401,F403
from .rmsprop import *  # noqa: F401,F403
from .rprop import *  # noqa: F401,F403
from . import lr_scheduler  # noqa: F401
from . import swa_utils  # noqa: F401

__all__ = (["Adafactor", "Adam", "AdamW", "LBFGS", "Optimizer", "SGD"] + adadelta.__all__ + adagrad.__all__
           + rmsprop.__all__ + adamax.__all__ + asgd.__all__ + nadam.__all__ + radam.__all__ + rprop.__all__)
