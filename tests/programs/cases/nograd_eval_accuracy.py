# Train a small classifier, then evaluate it the way tutorials do: model.eval(), torch.no_grad(),
# argmax(dim=1) predictions, correct counts summed with .type(torch.float).sum().item().
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(3)
X = torch.randn(120, 4)
y = (X[:, 0] + 2 * X[:, 1] > 0).long() + (X[:, 2] > 0.5).long()
train_dataloader = DataLoader(TensorDataset(X[:90], y[:90]), batch_size=30, shuffle=True)
test_dataloader = DataLoader(TensorDataset(X[90:], y[90:]), batch_size=16)
model = nn.Sequential(nn.Linear(4, 12), nn.Tanh(), nn.Linear(12, 3))
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)


def train_loop(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        pred = model(X)
        loss = loss_fn(pred, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if batch % 2 == 0:
            loss, current = loss.item(), batch * 30 + len(X)
            print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")


def test_loop(dataloader, model, loss_fn):
    model.eval()
    size = len(dataloader.dataset)
    num_batches = len(dataloader)
    test_loss, correct = 0, 0
    with torch.no_grad():
        for X, y in dataloader:
            pred = model(X)
            test_loss += loss_fn(pred, y).item()
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()
    test_loss /= num_batches
    correct /= size
    print(f"Test Error: \n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")


for t in range(3):
    print(f"Epoch {t+1}\n-------------------------------")
    train_loop(train_dataloader, model, loss_fn, optimizer)
    test_loop(test_dataloader, model, loss_fn)
print("Done!")
with torch.no_grad():
    logits = model(X[90:])
    probs = logits.softmax(dim=1)
    print(probs.requires_grad, logits.grad_fn, probs[:3])
    print(probs.argmax(dim=1)[:10], probs.max(dim=1).values[:4])
    acc = (probs.argmax(dim=1) == y[90:]).float().mean()
print(f"accuracy {acc:.4f}", acc.dtype)
print(torch.is_grad_enabled())
with torch.inference_mode():
    print(model(X[:2]), torch.is_inference_mode_enabled())
