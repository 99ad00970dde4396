# Concise softmax regression in a textbook's manner: Flatten + Linear, weights set through apply(), a
# per-example cross-entropy (reduction='none'), and an evaluation pass under no_grad counting argmax hits.
import torch
from torch import nn
from torch.utils import data


def hits_and_count(net, loader):
    """(right answers, examples) over a loader, in eval mode and without a graph."""
    net.eval()
    right = seen = 0
    with torch.no_grad():
        for x, target in loader:
            right += int((net(x).argmax(axis=1) == target).type(torch.int64).sum())
            seen += target.numel()
    return right, seen


pixels = torch.randn(96, 1, 3, 3)
labels = (pixels.sum(dim=(1, 2, 3)) > 0).long() + (pixels[:, 0, 0, 0] > 1).long()
train_loader = data.DataLoader(data.TensorDataset(pixels, labels), batch_size=32, shuffle=True)
test_loader = data.DataLoader(data.TensorDataset(pixels[:40], labels[:40]), batch_size=32)

net = nn.Sequential(nn.Flatten(), nn.Linear(9, 3))


def small_normal(layer):
    if isinstance(layer, nn.Linear):
        nn.init.normal_(layer.weight, mean=0.0, std=0.01)
        nn.init.zeros_(layer.bias)


net.apply(small_normal)
print(net)
per_example = nn.CrossEntropyLoss(reduction='none')
opt = torch.optim.SGD(net.parameters(), lr=0.5)
right, seen = hits_and_count(net, test_loader)
print('before training:', right / seen)
for epoch in range(4):
    net.train()
    loss_sum, right_sum, n = 0.0, 0, 0
    for x, target in train_loader:
        scores = net(x)
        losses = per_example(scores, target)
        opt.zero_grad()
        losses.mean().backward()
        opt.step()
        loss_sum += float(losses.sum())
        right_sum += int((scores.argmax(axis=1) == target).sum())
        n += len(target)
    right, seen = hits_and_count(net, test_loader)
    print(f'epoch {epoch + 1}: loss {loss_sum / n:.3f}, train acc {right_sum / n:.3f}, test acc {right / seen:.3f}')
print(net[1].weight.data)
print(net[1].bias)
x, target = next(iter(test_loader))
print(net(x).argmax(axis=1)[:8], target[:8])
print(losses.shape, losses.grad_fn, losses.mean())
