# A small image classifier on random 12x12 "images": Conv2d, BatchNorm2d, MaxPool2d, then a linear head.
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(19)
# Class 0 images are brighter in the top half, class 1 in the bottom half.
images = torch.randn(40, 1, 12, 12)
labels = torch.randint(0, 2, (40,))
images[labels == 0, :, :6] += 1.0
images[labels == 1, :, 6:] += 1.0
print("images", images.shape, "labels", labels.bincount())


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, kernel_size=3, padding=1)
        self.bn1 = nn.BatchNorm2d(4)
        self.conv2 = nn.Conv2d(4, 8, kernel_size=3)
        self.bn2 = nn.BatchNorm2d(8)
        self.pool = nn.MaxPool2d(2)
        self.fc = nn.Linear(8 * 2 * 2, 2)

    def forward(self, x):
        x = self.pool(F.relu(self.bn1(self.conv1(x))))     # 12 -> 6
        x = self.pool(F.relu(self.bn2(self.conv2(x))))     # 6 -> 4 -> 2
        return self.fc(torch.flatten(x, 1))


model = SmallCNN()
print(model)
x = images[:2]
steps = [("conv1", model.conv1), ("bn1", model.bn1), ("relu", F.relu), ("pool", model.pool), ("conv2", model.conv2),
         ("bn2", model.bn2), ("relu", F.relu), ("pool", model.pool), ("flatten", lambda t: torch.flatten(t, 1)),
         ("fc", model.fc)]
for name, layer in steps:
    x = layer(x)
    print(f"after {name:7s}: {str(tuple(x.shape)):14s} grad_fn={type(x.grad_fn).__name__}")

print("running_mean before:", model.bn1.running_mean)
print("num_batches_tracked:", model.bn1.num_batches_tracked)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for epoch in range(6):
    permutation = torch.randperm(40)
    total = 0.0
    for start in range(0, 40, 10):
        batch = permutation[start:start + 10]
        loss = F.cross_entropy(model(images[batch]), labels[batch])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    print(f"epoch {epoch}: mean loss {total / 4:.4f}")
print("running_mean after:", model.bn1.running_mean.round(decimals=3))
print("running_var after:", model.bn1.running_var.round(decimals=3))
print("num_batches_tracked:", model.bn1.num_batches_tracked)
print("conv1 weight grad:", model.conv1.weight.grad.shape)

model.eval()
with torch.no_grad():
    predictions = model(images).argmax(dim=1)
    print(f"train accuracy {(predictions == labels).float().mean().item():.3f}")
    # In eval mode BatchNorm uses its running statistics: one image alone gives the same answer as in a batch.
    alone = model(images[:1])
    in_batch = model(images[:5])[:1]
    print("eval: alone == in batch:", torch.allclose(alone, in_batch, atol=1e-6))
model.train()
try:
    model(images[:1, :, :, :])
    print("train mode, batch of 1: ok")
except ValueError as e:
    print("ValueError:", e)
try:
    model(torch.randn(2, 3, 12, 12))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    model(torch.randn(12, 12))
except RuntimeError as e:
    print("RuntimeError:", e)
print(nn.BatchNorm1d(3)(torch.ones(1, 3, 4)).shape)
try:
    nn.BatchNorm1d(3)(torch.ones(1, 3))
except ValueError as e:
    print("ValueError:", e)
