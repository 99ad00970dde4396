# Concise softmax regression in the textbook's manner: Flatten + Linear, weights initialised through
# apply(), a per-example cross-entropy, and an evaluation pass under no_grad that counts argmax hits.
import torch
from torch import nn
from torch.utils import data


class Accumulator:
    def __init__(self, n):
        self.data = [0.0] * n

    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]

    def __getitem__(self, i):
        return self.data[i]


def accuracy(y_hat, y):
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())


def evaluate_accuracy(net, data_iter):
    if isinstance(net, torch.nn.Module):
        net.eval()
    metric = Accumulator(2)
    with torch.no_grad():
        for X, y in data_iter:
            metric.add(accuracy(net(X), y), y.numel())
    return metric[0] / metric[1]


features = torch.randn(96, 1, 3, 3)
labels = (features.sum(dim=(1, 2, 3)) > 0).long() + (features[:, 0, 0, 0] > 1).long()
train_iter = data.DataLoader(data.TensorDataset(features, labels), batch_size=32, shuffle=True)
test_iter = data.DataLoader(data.TensorDataset(features[:40], labels[:40]), batch_size=32, shuffle=False)

net = nn.Sequential(nn.Flatten(), nn.Linear(9, 3))


def init_weights(m):
    if type(m) == nn.Linear:
        nn.init.normal_(m.weight, std=0.01)


net.apply(init_weights)
print(net)
loss = nn.CrossEntropyLoss(reduction='none')
trainer = torch.optim.SGD(net.parameters(), lr=0.5)
print('before training:', evaluate_accuracy(net, test_iter))
for epoch in range(4):
    net.train()
    metric = Accumulator(3)
    for X, y in train_iter:
        y_hat = net(X)
        l = loss(y_hat, y)
        trainer.zero_grad()
        l.mean().backward()
        trainer.step()
        metric.add(float(l.sum()), accuracy(y_hat, y), y.numel())
    train_loss, train_acc = metric[0] / metric[2], metric[1] / metric[2]
    test_acc = evaluate_accuracy(net, test_iter)
    print(f'epoch {epoch + 1}: loss {train_loss:.3f}, train acc {train_acc:.3f}, test acc {test_acc:.3f}')
print(net[1].weight.data)
print(net[1].bias)
X, y = next(iter(test_iter))
preds = net(X).argmax(axis=1)
print(preds[:8], y[:8])
print(l.shape, l.grad_fn, l.mean())
