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


def fit(loader, epochs):
    """Adam over the training loader; the last batch's loss of each epoch is printed."""
    for epoch in range(epochs):
        model.train()
        for inputs, targets in loader:
            loss = loss_fn(model(inputs), targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: last batch loss {loss.item():>7f}")


def accuracy_and_loss(loader):
    """Counts right predictions batch by batch with grad mode off (nothing here needs a gradient)."""
    model.eval()
    right, loss_sum = 0.0, 0.0
    with torch.no_grad():
        for inputs, targets in loader:
            logits = model(inputs)
            loss_sum += loss_fn(logits, targets).item() * len(inputs)
            right += (logits.argmax(1) == targets).type(torch.float).sum().item()
    n = len(loader.dataset)
    return right / n, loss_sum / n


for round_ in range(3):
    fit(train_dataloader, 1)
    acc, avg = accuracy_and_loss(test_dataloader)
    print(f"round {round_}: accuracy {100 * acc:>0.1f}%, loss {avg:>8f}")
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
