# 多层感知机从零开始 (our own example): one hidden layer built from bare parameters, a hand-written relu,
# softmax and cross-entropy, trained for a few steps to tell which of the first four inputs is largest.
import torch
from torch import nn

torch.manual_seed(9)
n_in, n_hidden, n_classes = 12, 24, 4
W_in = nn.Parameter(torch.randn(n_in, n_hidden, requires_grad=True) * 0.1)
b_in = nn.Parameter(torch.zeros(n_hidden, requires_grad=True))
W_out = nn.Parameter(torch.randn(n_hidden, n_classes, requires_grad=True) * 0.1)
b_out = nn.Parameter(torch.zeros(n_classes, requires_grad=True))
weights = [W_in, b_in, W_out, b_out]


def clip_below_zero(Z):
    return torch.max(Z, torch.zeros_like(Z))        # relu, written out


def forward(X):
    X = X.reshape((-1, n_in))
    hidden = clip_below_zero(X @ W_in + b_in)
    return hidden @ W_out + b_out


def probabilities(scores):
    e = torch.exp(scores)
    return e / e.sum(1, keepdim=True)


def surprise(probs, labels):
    """-log of the probability given to the right class, one number per row."""
    return -torch.log(probs[range(len(probs)), labels])


X = torch.randn(48, n_in)
labels = X[:, :n_classes].argmax(1)
opt = torch.optim.SGD(weights, lr=0.5)
for step in range(1, 6):
    per_row = surprise(probabilities(forward(X)), labels)
    opt.zero_grad()
    per_row.mean().backward()
    opt.step()
    right = (probabilities(forward(X)).argmax(axis=1) == labels).float().mean()
    print(f"step {step}: loss {per_row.mean():.6f}, right {right:.4f}")
print(W_in.shape, b_out, weights[3].grad)
print(nn.functional.dropout(torch.full((3, 3), 2.0), 0.25, training=True))
keep = (torch.rand(3, 3) > 0.25).float()
print(keep, keep * torch.arange(9.).reshape(3, 3) / 0.75)
