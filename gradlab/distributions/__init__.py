"""torch.distributions, the part teaching material uses: Categorical and Multinomial (d2l's dice)."""
from . import categorical, constraints, distribution, multinomial
from .categorical import Categorical
from .distribution import Distribution
from .multinomial import Multinomial

__all__ = ["Categorical", "Distribution", "Multinomial"]
