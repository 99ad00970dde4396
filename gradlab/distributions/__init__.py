"""torch.distributions, the part teaching material uses: Normal (the reparameterization trick), Bernoulli,
Uniform, Categorical and Multinomial (d2l's dice), Independent, Exponential, Laplace, OneHotCategorical,
kl_divergence and the constraints."""
from . import (bernoulli, categorical, constraints, distribution, exp_family, exponential, independent, kl, laplace,
               multinomial, multivariate_normal, normal, one_hot_categorical, poisson, uniform, utils)
from .bernoulli import Bernoulli
from .categorical import Categorical
from .distribution import Distribution
from .exp_family import ExponentialFamily
from .exponential import Exponential
from .independent import Independent
from .kl import kl_divergence, register_kl
from .laplace import Laplace
from .multinomial import Multinomial
from .multivariate_normal import MultivariateNormal
from .normal import Normal
from .one_hot_categorical import OneHotCategorical, OneHotCategoricalStraightThrough
from .poisson import Poisson
from .uniform import Uniform

__all__ = ["Bernoulli", "Categorical", "Distribution", "Exponential", "ExponentialFamily", "Independent", "Laplace",
           "Multinomial", "MultivariateNormal", "Normal", "OneHotCategorical", "OneHotCategoricalStraightThrough", "Poisson", "Uniform",
           "kl_divergence", "register_kl"]
