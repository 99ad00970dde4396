# Dropout and weight decay: our own dropout function next to nn.Dropout in a small network, then an L2
# penalty added to a hand-written loss, and SGD's weight_decay set for one parameter group only.
import torch
from torch import nn


def drop(values, p):
    """Zero each entry with probability p and scale the survivors by 1 / (1 - p), so the mean is kept."""
    if not 0 <= p <= 1:
        raise ValueError("p is a probability")
    if p == 1:
        return torch.zeros_like(values)
    if p == 0:
        return values
    survive = (torch.rand(values.shape) > p).float()
    return survive * values / (1.0 - p)


A = torch.linspace(1, 12, 12).reshape((3, 4))
print(A)
print(drop(A, 0.))
print(drop(A, 0.25))
print(drop(A, 1.))

p_first, p_second = 0.3, 0.1
net = nn.Sequential(nn.Flatten(), nn.Linear(6, 12), nn.ReLU(), nn.Dropout(p_first),
                    nn.Linear(12, 6), nn.ReLU(), nn.Dropout(p_second), nn.Linear(6, 2))


def tiny_normal(m):
    if type(m) == nn.Linear:
        nn.init.normal_(m.weight, std=0.05)


net.apply(tiny_normal)
x = torch.randn(5, 6)
y = torch.randint(0, 2, (5,))
net.train()                                  # dropout on: two calls give different outputs
print(net(x))
net.eval()                                   # dropout off
print(net(x))
print(net.training, net[3].training)


def half_square_norm(w):
    return torch.sum(w.pow(2)) / 2


w = torch.normal(0, 1, size=(6, 1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)
strength = 2
for step in range(3):
    fit = ((x @ w + b - y.float().reshape(-1, 1)) ** 2 / 2).mean()
    total = fit + strength * half_square_norm(w)
    total.backward()
    with torch.no_grad():
        for param in (w, b):
            param -= 0.02 * param.grad
            param.grad.zero_()
    print(f"step {step}: loss {total.item():.5f}, w norm {torch.norm(w).item():.6f}")

loss = nn.CrossEntropyLoss()
opt = torch.optim.SGD([{"params": net[1].weight, 'weight_decay': 0.05}, {"params": net[1].bias}] +
                      [{"params": net[i].parameters()} for i in (4, 7)], lr=0.2)
print(len(opt.param_groups), [g['weight_decay'] for g in opt.param_groups])
net.train()
for epoch in range(3):
    opt.zero_grad()
    l = loss(net(x), y)
    l.backward()
    opt.step()
    print(f"epoch {epoch}: {l.item():.6f}, first layer's norm {net[1].weight.norm().item():.6f}")
