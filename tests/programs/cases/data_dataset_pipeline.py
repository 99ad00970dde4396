# A Dataset with a transform, Subset/ConcatDataset, a WeightedRandomSampler for imbalanced classes, and a DataLoader
# whose shuffling is fixed by its own generator.
import torch
from torch.utils.data import (ConcatDataset, DataLoader, Dataset, Subset, TensorDataset, WeightedRandomSampler,
                              random_split)


class Squares(Dataset):
    """Item i is (a small vector made from i, a label): 0 for even i, 1 for odd i divisible by 3, else 2."""

    def __init__(self, n, transform=None):
        self.n, self.transform = n, transform

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if i >= self.n:
            raise IndexError(f"index {i} out of range for {self.n} items")
        x = torch.tensor([i, i * i], dtype=torch.float32)
        if self.transform:
            x = self.transform(x)
        label = 0 if i % 2 == 0 else (1 if i % 3 == 0 else 2)
        return x, label


data = Squares(12, transform=lambda x: x / 10)
print(len(data), data[3])
x, label = data[5]
print(x, type(label).__name__)

loader = DataLoader(data, batch_size=5, shuffle=True, generator=torch.Generator().manual_seed(42))
for xs, ys in loader:
    print(xs.shape, ys)
print("again, same order?")
for xs, ys in DataLoader(data, batch_size=5, shuffle=True, generator=torch.Generator().manual_seed(42)):
    print(ys)
print("drop_last:", [len(ys) for _, ys in DataLoader(data, batch_size=5, drop_last=True)])
print("len(loader):", len(loader), len(DataLoader(data, batch_size=5, drop_last=True)))

evens = Subset(data, [0, 2, 4])
print("subset:", len(evens), evens[1])
both = ConcatDataset([evens, TensorDataset(torch.ones(2, 2), torch.tensor([7, 8]))])
print("concat:", len(both), both[3], both.cumulative_sizes)
train, test = random_split(data, [0.75, 0.25], generator=torch.Generator().manual_seed(1))
print("split sizes:", len(train), len(test), "test indices:", test.indices)

# Imbalanced labels: sample rare classes more often.
labels = torch.tensor([data[i][1] for i in range(len(data))])
counts = torch.bincount(labels)
print("label counts:", counts)
weights = 1.0 / counts[labels].float()
sampler = WeightedRandomSampler(weights, num_samples=30, replacement=True, generator=torch.Generator().manual_seed(3))
drawn = torch.tensor([data[i][1] for i in sampler])
print("drawn counts:", torch.bincount(drawn, minlength=3))
print("weights:", weights.round(decimals=3))


def collate_dicts(batch):
    xs, ys = zip(*batch)
    return {"x": torch.stack(xs), "y": torch.tensor(ys), "n": len(batch)}


for batch in DataLoader(evens, batch_size=2, collate_fn=collate_dicts):
    print(batch)
try:
    DataLoader(data, batch_size=4, shuffle=True, sampler=sampler)
except ValueError as e:
    print("ValueError:", e)
try:
    random_split(data, [5, 5])
except ValueError as e:
    print("ValueError:", e)
try:
    data[20]
except IndexError as e:
    print("IndexError:", e)
