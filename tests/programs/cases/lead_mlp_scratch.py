# 多层感知机从零开始: parameters by hand, relu, softmax cross-entropy, a few SGD steps on random data.
import torch
from torch import nn

torch.manual_seed(5)
num_inputs, num_hiddens, num_outputs = 20, 32, 5
W1 = nn.Parameter(torch.randn(num_inputs, num_hiddens, requires_grad=True) * 0.01)
b1 = nn.Parameter(torch.zeros(num_hiddens, requires_grad=True))
W2 = nn.Parameter(torch.randn(num_hiddens, num_outputs, requires_grad=True) * 0.01)
b2 = nn.Parameter(torch.zeros(num_outputs, requires_grad=True))
params = [W1, b1, W2, b2]


def relu(X):
    a = torch.zeros_like(X)
    return torch.max(X, a)


def net(X):
    X = X.reshape((-1, num_inputs))
    H = relu(X @ W1 + b1)
    return H @ W2 + b2


def softmax(X):
    X_exp = torch.exp(X)
    partition = X_exp.sum(1, keepdim=True)
    return X_exp / partition


def cross_entropy(y_hat, y):
    return -torch.log(y_hat[range(len(y_hat)), y])


X = torch.randn(64, num_inputs)
y = torch.randint(0, num_outputs, (64,))
updater = torch.optim.SGD(params, lr=0.5)
for epoch in range(4):
    l = cross_entropy(softmax(net(X)), y)
    updater.zero_grad()
    l.mean().backward()
    updater.step()
    acc = (softmax(net(X)).argmax(axis=1) == y).float().mean()
    print(f"epoch {epoch + 1}, loss {l.mean():.6f}, acc {acc:.4f}")
print(W1.shape, b2, params[3].grad)
print(nn.functional.dropout(torch.ones(2, 4), 0.5, training=True))
mask = (torch.rand(2, 4) > 0.5).float()
print(mask, mask * torch.arange(8.).reshape(2, 4) / 0.5)
