# Train / validation split with random_split, then a small classifier trained on mini-batches.
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset, random_split

torch.manual_seed(1)
n = 120
X = torch.randn(n, 4)
y = (X[:, 0] + 0.5 * X[:, 1] > 0).long()
full = TensorDataset(X, y)

train_set, val_set = random_split(full, [0.8, 0.2])
print(len(train_set), len(val_set))
print("first validation indices:", val_set.indices[:6])
a, b, c = random_split(range(10), [5, 3, 2], generator=torch.Generator().manual_seed(42))
print(list(a), list(b), list(c))

train_loader = DataLoader(train_set, batch_size=16, shuffle=True)
val_loader = DataLoader(val_set, batch_size=32)

model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

for epoch in range(4):
    model.train()
    running = 0.0
    for xb, yb in train_loader:
        optimizer.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        optimizer.step()
        running += loss.item() * xb.shape[0]
    model.eval()
    correct = 0
    with torch.no_grad():
        for xb, yb in val_loader:
            correct += (model(xb).argmax(dim=1) == yb).sum().item()
    print(f"epoch {epoch}: train loss {running / len(train_set):.4f}, val accuracy {correct / len(val_set):.3f}")

random_split(full, [100, 10])
