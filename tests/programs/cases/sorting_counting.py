# Counting: class balance with bincount, unique labels, non-zeros, histograms.
import torch

labels = torch.tensor([2, 0, 1, 2, 2, 0, 4])
print(torch.bincount(labels))
print(labels.bincount(minlength=6))
weights = torch.tensor([0.5, 1.0, 1.0, 0.25, 0.25, 1.0, 2.0])
print(torch.bincount(labels, weights=weights))

values, counts = torch.unique(labels, return_counts=True)
print(values, counts)
u, inverse = labels.unique(return_inverse=True)
print(u, inverse)
print(torch.unique(torch.tensor([[1, 2], [1, 2], [0, 5]]), dim=0))
print(torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1, 1])))

mask = torch.tensor([[0, 1, 0], [2, 0, 3]])
print(torch.count_nonzero(mask), mask.count_nonzero(dim=0), torch.count_nonzero(mask, dim=1))

torch.manual_seed(0)
samples = torch.randn(1000)
hist = torch.histc(samples, bins=8, min=-2, max=2)
print(hist, hist.sum())
print(torch.histc(torch.tensor([1.0, 2.0, 1.0]), bins=4, min=0, max=3))

try:
    torch.bincount(torch.tensor([1, -1]))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.bincount(torch.tensor([1.0, 2.0]))
except NotImplementedError as e:
    print("NotImplementedError:", e)
