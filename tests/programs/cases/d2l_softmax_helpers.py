# Softmax regression written out by hand, with the small bookkeeping helpers textbooks add along the way
# (running totals, a count of right answers), on random data shaped like tiny images.
import torch
from torch.utils import data


class Totals:
    """Named running sums: totals.add(loss=..., right=..., seen=...), then totals['loss']."""

    def __init__(self, *names):
        self.sums = dict.fromkeys(names, 0.0)

    def add(self, **amounts):
        for name, amount in amounts.items():
            self.sums[name] += float(amount)

    def __getitem__(self, name):
        return self.sums[name]


images = torch.rand(60, 1, 4, 4)
classes = torch.randint(0, 3, (60,))
loader = data.DataLoader(data.TensorDataset(images, classes), batch_size=16, shuffle=True)
W = torch.normal(0, 0.01, size=(16, 3), requires_grad=True)
b = torch.zeros(3, requires_grad=True)
M = torch.tensor([[1.0, -2.0], [0.5, 4.0], [3.0, 0.0]])
print(M.sum(0, keepdim=True), M.sum(1, keepdim=True), M.sum(dim=(0, 1)))


def softmax(logits):
    """exp, then each row divided by its own sum (rows of probabilities)."""
    e = logits.exp()
    return e / e.sum(1, keepdim=True)


probs = softmax(torch.normal(0, 1, (3, 4)))
print(probs, probs.sum(1))


def model(x):
    return softmax(x.reshape(-1, 16) @ W + b)


picked = torch.tensor([2, 0])
guesses = torch.tensor([[0.2, 0.2, 0.6], [0.5, 0.1, 0.4]])
print(guesses[[0, 1], picked], guesses[range(2), picked])


def neg_log_likelihood(p, target):
    return -p[range(len(p)), target].log()


print(neg_log_likelihood(guesses, picked))


def right_answers(p, target):
    best = p.argmax(axis=1) if p.ndim > 1 else p
    return float((best.type(target.dtype) == target).sum())


print(right_answers(guesses, picked) / len(picked))


def share_right(f, batches):
    totals = Totals("right", "seen")
    with torch.no_grad():
        for x, target in batches:
            totals.add(right=right_answers(f(x), target), seen=target.numel())
    return totals["right"] / totals["seen"]


print(share_right(model, loader))

for epoch in range(3):
    totals = Totals("loss", "right", "seen")
    for x, target in loader:
        p = model(x)
        loss = neg_log_likelihood(p, target)
        loss.sum().backward()
        with torch.no_grad():
            for param in (W, b):
                param -= 0.1 * param.grad / len(x)
                param.grad.zero_()
        totals.add(loss=loss.sum().detach(), right=right_answers(p, target), seen=len(target))
    print(f"epoch {epoch}: mean loss {totals['loss'] / totals['seen']:.4f}, "
          f"right {totals['right'] / totals['seen']:.3f}")
print(share_right(model, loader), W.grad.abs().sum())
