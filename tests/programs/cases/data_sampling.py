# Random draws: coin flips, categorical samples, random integers, and a generator of our own.
import torch

torch.manual_seed(0)
coins = torch.empty(10).bernoulli_(0.3)
print("coins:", coins, coins.sum())
probs = torch.rand(2, 4)
print(probs.bernoulli())
print(torch.ones(5).bernoulli(0.5))

weights = torch.tensor([0.1, 0.2, 0.3, 0.4])
print("with replacement:", weights.multinomial(10, replacement=True))
print("without:", weights.multinomial(4))
print(torch.tensor([[0.0, 10.0, 3.0], [1.0, 0.0, 1.0]]).multinomial(2))

dice = torch.empty(8, dtype=torch.long).random_(1, 7)
print("dice:", dice)
print(torch.empty(5).random_(10))
print(torch.empty(3, dtype=torch.int32).random_())
print("waits:", torch.empty(4).exponential_(2.0))
print("trials:", torch.empty(4).geometric_(0.25))

g = torch.Generator().manual_seed(2024)
print(torch.rand(3, generator=g), torch.randint(0, 10, (4,), generator=g))
print(torch.randn(2, 2, generator=g, dtype=torch.float64))
state = g.get_state()
first = torch.rand(2, generator=g)
g.set_state(state)
print(torch.equal(first, torch.rand(2, generator=g)))

x = torch.randn(3, 4)
mask = torch.empty_like(x).bernoulli_(0.8)
print(x * mask / 0.8)
print(torch.rand(2))
weights.multinomial(5)
