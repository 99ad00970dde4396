# Sorting scores, ranking them, and putting things back in their original order.
import torch

scores = torch.tensor([0.3, 2.5, -1.0, 2.5, 0.0, 1.7])
values, indices = torch.sort(scores)
print(values)
print(indices)

desc = scores.sort(descending=True)
print(desc)
print("ranking:", scores.argsort(descending=True))
print("stable:", torch.sort(scores, descending=True, stable=True).indices)

# undo a sort: the inverse permutation
restored = torch.empty_like(values)
restored[indices] = values
print(torch.equal(restored, scores))
print(indices.argsort())

m = torch.tensor([[3, 1, 2], [9, 7, 8]])
print(m.sort(dim=0, descending=True))
print(torch.msort(torch.tensor([[4., 1.], [2., 3.], [0., 5.]])))
print(torch.sort(m, 1).values.dtype)

x = torch.tensor([2.0, -1.0, 3.0], requires_grad=True)
s, _ = x.sort()
print(s)
(s * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(x.grad)
