"""torch.distributions, the part teaching material uses: Normal (the reparameterization trick), Bernoulli,
Uniform, Categorical and Multinomial (d2l's dice), Independent, MultivariateNormal, Exponential, Laplace, Poisson,
Binomial, Geometric, OneHotCategorical, LogNormal, HalfNormal and RelaxedBernoulli (transformed distributions),
kl_divergence and the constraints."""
from . import (bernoulli, binomial, categorical, constraints, distribution, exp_family, exponential, geometric, half_normal, independent,
               kl, laplace, log_normal, multinomial, multivariate_normal, normal, one_hot_categorical, poisson,
               relaxed_bernoulli, transformed_distribution, transforms, uniform, utils)
from .bernoulli import Bernoulli
from .binomial import Binomial
from .categorical import Categorical
from .distribution import Distribution
from .exp_family import ExponentialFamily
from .exponential import Exponential
from .geometric import Geometric
from .half_normal import HalfNormal
from .independent import Independent
from .kl import kl_divergence, register_kl
from .laplace import Laplace
from .log_normal import LogNormal
from .multinomial import Multinomial
from .multivariate_normal import MultivariateNormal
from .normal import Normal
from .one_hot_categorical import OneHotCategorical, OneHotCategoricalStraightThrough
from .poisson import Poisson
from .relaxed_bernoulli import RelaxedBernoulli
from .transformed_distribution import TransformedDistribution
from .transforms import *  # noqa: F401,F403
from .uniform import Uniform

__all__ = ["Bernoulli", "Binomial", "Categorical", "Distribution", "Exponential", "ExponentialFamily", "Geometric", "HalfNormal", "Independent",
           "Laplace", "LogNormal", "Multinomial", "MultivariateNormal", "Normal", "OneHotCategorical",
           "OneHotCategoricalStraightThrough", "Poisson", "RelaxedBernoulli", "TransformedDistribution", "Uniform",
           "kl_divergence", "register_kl"]
__all__.extend(transforms.__all__)
