# Shuffling by hand with randperm, sampling tokens with multinomial, dropout masks with bernoulli.
import torch

torch.manual_seed(7)
X = torch.arange(20.0).reshape(10, 2)
y = torch.arange(10)
perm = torch.randperm(len(X))
print("permutation:", perm)
for start in range(0, len(X), 4):
    idx = perm[start:start + 4]
    print(X[idx].tolist(), y[idx].tolist())

print(torch.randperm(6, dtype=torch.float32))
g = torch.Generator().manual_seed(0)
print(torch.randperm(8, generator=g), torch.randperm(8, generator=g))

logits = torch.tensor([2.0, 1.0, 0.1, -1.0])
probs = torch.softmax(logits, dim=0)
print("probs:", probs)
print("next tokens:", torch.multinomial(probs, num_samples=8, replacement=True))
print("top-2 without replacement:", torch.multinomial(probs, 2))
counts = torch.bincount(torch.multinomial(probs, 1000, replacement=True), minlength=4) if hasattr(torch, "bincount") else None
print(counts)

keep = torch.bernoulli(torch.full((3, 5), 0.7))
print(keep)
print(torch.bernoulli(torch.rand(2, 3)))
print(torch.poisson(torch.tensor([1.0, 4.0, 20.0])))
torch.randperm(-3)
