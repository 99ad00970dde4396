# Probability by simulation: rolling dice with torch.distributions, as the textbooks' probability chapter does.
import torch
from torch.distributions import multinomial

die = torch.full((6,), 1 / 6)
one_roll = multinomial.Multinomial(1, die).sample()
print(one_roll, one_roll.argmax().item() + 1)
print(multinomial.Multinomial(12, die).sample())
tally = multinomial.Multinomial(600, die).sample()
print(tally / 600, tally.sum())
# how the share of each face settles as the rolls add up: 200 rounds of 5 rolls
rounds = multinomial.Multinomial(5, die).sample((200,))
running = rounds.cumsum(dim=0)
shares = running / running.sum(dim=1, keepdims=True)
print(shares[:2])
print(shares[-1], (shares[-1] - 1 / 6).abs().max() < 0.1)
coin = torch.distributions.Multinomial(100, torch.tensor([0.5, 0.5]))
print(coin, coin.mean, coin.variance)
heads = coin.sample((4,))
print(heads, heads.shape)
d = torch.distributions.Categorical(probs=torch.tensor([0.1, 0.2, 0.7]))
print(d, d.sample((8,)), d.probs, d.logits)
samples = torch.multinomial(die, 12, replacement=True)
print(samples, torch.bincount(samples, minlength=6))
try:
    multinomial.Multinomial(5, torch.tensor([0.5, -0.5, 1.0]))
except ValueError as e:
    print("ValueError:", e)
