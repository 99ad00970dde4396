"""torch.distributions, the part teaching material uses: Normal (the reparameterization trick), Bernoulli,
Uniform, Categorical and Multinomial (d2l's dice), Independent, Exponential, Laplace, OneHotCategorical,
kl_divergence and the constraints."""
from . import (bernoulli, categorical, constraints, distribution, exp_family, exponential, independent, kl, laplace,
               multinomial, normal, one_hot_categorical, uniform, utils)
from .bernoulli import Bernoulli
from .categorical import Categorical
from .distribution import Distribution
from .exp_family import ExponentialFamily
from .exponential import Exponential
from .independent import Independent
from .kl import kl_divergence, register_kl
from .laplace import Laplace
from .multinomial import Multinomial
from .normal import Normal
from .one_hot_categorical import OneHotCategorical, OneHotCategoricalStraightThrough
from .uniform import Uniform

__all__ = ["Bernoulli", "Categorical", "Distribution", "Exponential", "ExponentialFamily", "Independent", "Laplace",
           "Multinomial", "Normal", "OneHotCategorical", "OneHotCategoricalStraightThrough", "Uniform",
           "kl_divergence", "register_kl"]
