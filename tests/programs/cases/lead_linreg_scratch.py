# Linear regression from scratch: synthetic data, minibatches, a hand-written SGD step.
import random

import torch

random.seed(0)
torch.manual_seed(0)


def synthetic(w, b, n):
    X = torch.normal(0, 1, (n, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))


true_w = torch.tensor([2, -3.4])
true_b = 4.2
features, labels = synthetic(true_w, true_b, 200)
print('features:', features[0], '\nlabel:', labels[0])


def batches(batch_size, features, labels):
    n = len(features)
    order = list(range(n))
    random.shuffle(order)
    for i in range(0, n, batch_size):
        idx = torch.tensor(order[i: min(i + batch_size, n)])
        yield features[idx], labels[idx]


w = torch.normal(0, 0.01, size=(2, 1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)


def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()


for epoch in range(3):
    for X, y in batches(10, features, labels):
        l = ((torch.mm(X, w) + b - y) ** 2 / 2)
        l.sum().backward()
        sgd([w, b], 0.03, 10)
    with torch.no_grad():
        train_l = ((torch.mm(features, w) + b - labels) ** 2 / 2)
        print(f'epoch {epoch + 1}, loss {float(train_l.mean()):f}')
print(f'error in w: {true_w - w.reshape(true_w.shape)}')
print(f'error in b: {true_b - b}')
