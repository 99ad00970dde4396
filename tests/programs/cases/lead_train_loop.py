# 优化模型参数: a train loop and a test loop over synthetic data, printed the way the tutorials print them.
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(11)
X = torch.randn(256, 10)
w = torch.randn(10, 3)
y = (X @ w).argmax(1)
train = DataLoader(TensorDataset(X[:192], y[:192]), batch_size=32, shuffle=True)
test = DataLoader(TensorDataset(X[192:], y[192:]), batch_size=32)
model = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 3))
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def one_epoch(batches, net, criterion, opt):
    """One pass over the training batches; every third batch reports its loss and how far we are."""
    seen, total = 0, len(batches.dataset)
    net.train()
    for step, (features, labels) in enumerate(batches):
        opt.zero_grad()
        batch_loss = criterion(net(features), labels)
        batch_loss.backward()
        opt.step()
        seen += len(features)
        if step % 3 == 0:
            print(f"step {step:>2d}  loss {batch_loss.item():>8.5f}  ({seen:>3d} of {total})")


def evaluate(batches, net, criterion):
    """Mean loss per batch and the share of right answers, without recording a graph."""
    net.eval()
    losses, hits = [], 0.0
    with torch.no_grad():
        for features, labels in batches:
            scores = net(features)
            losses.append(criterion(scores, labels).item())
            hits += (scores.argmax(1) == labels).type(torch.float).sum().item()
    print(f"held out: {100 * hits / len(batches.dataset):>5.1f}% right, mean loss {sum(losses) / len(losses):>8f}")


for epoch in range(1, 4):
    print(f"== epoch {epoch} ==")
    one_epoch(train, model, loss_fn, optimizer)
    evaluate(test, model, loss_fn)
print("Done!")
torch.save(model.state_dict(), "/tmp/gradlab_program_weights.pth")
model2 = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 3))
print(model2.load_state_dict(torch.load("/tmp/gradlab_program_weights.pth", weights_only=True)))
print(model2.eval())
print(torch.equal(model2[0].weight, model[0].weight))
