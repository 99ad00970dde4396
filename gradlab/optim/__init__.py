"""gradlab.optim: SGD, Adam and AdamW with PyTorch's API, update formulas and printed text."""
from .adam import Adam, AdamW
from .optimizer import Optimizer
from .sgd import SGD

__all__ = ["Adam", "AdamW", "Optimizer", "SGD"]
