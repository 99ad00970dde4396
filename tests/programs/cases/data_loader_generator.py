# DataLoader over a TensorDataset shuffled from a generator of its own, so that the order is the same
# on every run; random_split with a seeded generator, and the global stream left untouched by both.
import torch
from torch.utils.data import DataLoader, TensorDataset, random_split

X = torch.arange(20, dtype=torch.float32).reshape(10, 2)
y = torch.arange(10)
dataset = TensorDataset(X, y)
print(len(dataset), dataset[3])
g = torch.Generator()
g.manual_seed(42)
loader = DataLoader(dataset, batch_size=4, shuffle=True, generator=g)
for epoch in range(2):
    for i, (xb, yb) in enumerate(loader):
        print(epoch, i, yb.tolist(), xb.shape)
print(torch.rand(2))
g2 = torch.Generator().manual_seed(7)
loader2 = DataLoader(dataset, batch_size=3, shuffle=True, drop_last=True, generator=g2)
print(len(loader2), [b[1].tolist() for b in loader2])
print(g2.initial_seed())
train_set, val_set = random_split(dataset, [7, 3], generator=torch.Generator().manual_seed(0))
print(len(train_set), len(val_set), list(train_set.indices), list(val_set.indices))
a, b = random_split(range(10), [0.5, 0.5], generator=torch.Generator().manual_seed(1))
print(list(a), list(b))
plain = DataLoader(dataset, batch_size=4, shuffle=True)
print([b[1].tolist() for b in plain])
print(torch.randint(0, 10, (3,)))
print(next(iter(DataLoader(dataset, batch_size=2))))
print(torch.randperm(6, generator=torch.Generator().manual_seed(3)))
print(torch.rand(2, generator=g), torch.randn(2, generator=torch.Generator().manual_seed(5)))
