# A multilayer perceptron with dropout written by hand and with nn.Dropout, plus an L2 penalty written
# by hand against SGD's weight_decay on one parameter group.
import torch
from torch import nn


def dropout_layer(X, dropout):
    assert 0 <= dropout <= 1
    if dropout == 1:
        return torch.zeros_like(X)
    if dropout == 0:
        return X
    mask = (torch.rand(X.shape) > dropout).float()
    return mask * X / (1.0 - dropout)


X = torch.arange(16, dtype=torch.float32).reshape((2, 8))
print(X)
print(dropout_layer(X, 0.))
print(dropout_layer(X, 0.5))
print(dropout_layer(X, 1.))

dropout1, dropout2 = 0.2, 0.5
net = nn.Sequential(nn.Flatten(), nn.Linear(6, 16), nn.ReLU(), nn.Dropout(dropout1),
                    nn.Linear(16, 8), nn.ReLU(), nn.Dropout(dropout2), nn.Linear(8, 2))


def small_weights(m):
    if type(m) == nn.Linear:
        nn.init.normal_(m.weight, std=0.01)


net.apply(small_weights)
x = torch.randn(5, 6)
y = torch.randint(0, 2, (5,))
net.train()
print(net(x))
net.eval()
print(net(x))
print(net.training, net[3].training)


def l2_penalty(w):
    return torch.sum(w.pow(2)) / 2


w = torch.normal(0, 1, size=(6, 1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lambd = 3
for step in range(3):
    l = ((x @ w + b - y.float().reshape(-1, 1)) ** 2 / 2).mean() + lambd * l2_penalty(w)
    l.backward()
    with torch.no_grad():
        for param in (w, b):
            param -= 0.01 * param.grad
            param.grad.zero_()
    print(step, l.item(), 'w norm:', torch.norm(w).item())

loss = nn.CrossEntropyLoss()
trainer = torch.optim.SGD([{"params": net[1].weight, 'weight_decay': 0.1}, {"params": net[1].bias}] +
                          [{"params": net[i].parameters()} for i in (4, 7)], lr=0.1)
print(len(trainer.param_groups), [g['weight_decay'] for g in trainer.param_groups])
net.train()
for epoch in range(3):
    trainer.zero_grad()
    l = loss(net(x), y)
    l.backward()
    trainer.step()
    print(f"epoch {epoch}: {l.item():.6f}", net[1].weight.norm().item())
