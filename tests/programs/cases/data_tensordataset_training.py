# Linear regression on mini-batches: a TensorDataset, a shuffling DataLoader, a training loop.
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(42)
true_w = torch.tensor([-0.7, 1.9])
true_b = -1.3
features = torch.randn(100, 2)
labels = features @ true_w + true_b + 0.01 * torch.randn(100)
labels = labels.reshape(-1, 1)

dataset = TensorDataset(features, labels)
print("samples:", len(dataset))
x0, y0 = dataset[0]
print("first sample:", x0, y0)

loader = DataLoader(dataset, batch_size=10, shuffle=True)
print("batches per epoch:", len(loader))
X, y = next(iter(loader))
print("one batch:", X.shape, y.shape)
print(X)
print(y)

net = nn.Linear(2, 1)
loss_fn = nn.MSELoss()
optimizer = torch.optim.SGD(net.parameters(), lr=0.03)

for epoch in range(3):
    for X, y in loader:
        loss = loss_fn(net(X), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    with torch.no_grad():
        total = loss_fn(net(features), labels)
    print(f"epoch {epoch + 1}, loss {total:.4f}")

print("w:", net.weight.data, "b:", net.bias.data)
print("error in w:", true_w - net.weight.data.reshape(true_w.shape))
print("error in b:", true_b - net.bias.data)
