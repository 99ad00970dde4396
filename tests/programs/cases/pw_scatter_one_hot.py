# scatter_ and scatter_add: one-hot labels and per-class sums, as classification
# tutorials build them by hand, with the gradients autograd gives.
import torch

torch.manual_seed(0)
labels = torch.tensor([2, 0, 1, 2])
one_hot = torch.zeros(4, 3).scatter_(1, labels.unsqueeze(1), 1.0)
print(one_hot)
print(torch.zeros(4, 3, dtype=torch.long).scatter(1, labels.view(-1, 1), 1))

# add the rows of each class together
features = torch.randn(4, 2, requires_grad=True)
index = labels.unsqueeze(1).expand(-1, 2)
sums = torch.zeros(3, 2).scatter_add(0, index, features)
print(sums)
sums.sum().backward()
print(features.grad)
print(sums.grad_fn.name())

# index_add_ does the same along one dim
totals = torch.zeros(3, 2)
totals.index_add_(0, labels, features.detach())
print(totals)
print(torch.zeros(3).index_add(0, labels, torch.ones(4), alpha=0.5))

# scatter with a tensor src, and its gradient
w = torch.arange(1.0, 5.0, requires_grad=True)
out = torch.zeros(6).scatter(0, torch.tensor([5, 0, 3, 1]), w)
print(out)
(out * torch.arange(6.0)).sum().backward()
print(w.grad)

# gather picks values back out (the probabilities of the true classes)
probs = torch.softmax(torch.randn(4, 3), dim=1)
picked = probs.gather(1, labels.unsqueeze(1)).squeeze(1)
print(picked)
print(-picked.log().mean())

# the mistakes: an index of the wrong dtype, or out of range
try:
    torch.zeros(4, 3).scatter_(1, labels.float().unsqueeze(1), 1.0)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.zeros(4, 3).scatter_(1, (labels + 1).unsqueeze(1), 1.0)
except RuntimeError as e:
    print("RuntimeError:", e)
