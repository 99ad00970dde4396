# A k-nearest-neighbours classifier from scratch: distances, topk, majority vote with mode/bincount.
import torch

torch.manual_seed(42)
centers = torch.tensor([[0.0, 0.0], [3.0, 3.0], [0.0, 4.0]])
train_x = torch.cat([c + 0.8 * torch.randn(10, 2) for c in centers])
train_y = torch.arange(3).repeat_interleave(10)
test_x = torch.tensor([[0.2, -0.1], [2.5, 3.2], [0.5, 3.5], [1.5, 1.5]])

dists = ((test_x.unsqueeze(1) - train_x.unsqueeze(0)) ** 2).sum(dim=2).sqrt()
print(dists.shape)
k = 5
nearest = dists.topk(k, dim=1, largest=False)
print(nearest.values)
print(nearest.indices)
neighbour_labels = train_y[nearest.indices]
print(neighbour_labels)

vote = neighbour_labels.mode(dim=1)
print(vote)
for row in neighbour_labels:
    print(torch.bincount(row, minlength=3).tolist(), end=" ")
print()

order = dists[3].argsort()
print("closest to the last point:", order[:3], train_y[order[:3]])
ranked, _ = torch.sort(dists[3])
print(ranked[:3])
print("median distance:", dists.median(dim=1).values)
