# Probability by simulation: rolling dice with torch.distributions, as the textbooks' probability chapter does.
import torch
from torch.distributions import multinomial

fair_probs = torch.ones([6]) / 6
print(multinomial.Multinomial(1, fair_probs).sample())
print(multinomial.Multinomial(10, fair_probs).sample())
counts = multinomial.Multinomial(1000, fair_probs).sample()
print(counts / 1000)
counts = multinomial.Multinomial(10, fair_probs).sample((500,))
cum_counts = counts.cumsum(dim=0)
estimates = cum_counts / cum_counts.sum(dim=1, keepdims=True)
print(estimates[:3])
print(estimates[-1])
coin = torch.distributions.Multinomial(100, torch.tensor([0.5, 0.5]))
print(coin, coin.mean, coin.variance)
heads = coin.sample((4,))
print(heads, heads.shape)
d = torch.distributions.Categorical(probs=torch.tensor([0.1, 0.2, 0.7]))
print(d, d.sample((8,)), d.probs, d.logits)
samples = torch.multinomial(fair_probs, 12, replacement=True)
print(samples, torch.bincount(samples, minlength=6))
try:
    multinomial.Multinomial(5, torch.tensor([0.5, -0.5, 1.0]))
except ValueError as e:
    print("ValueError:", e)
