# Train a small convolutional classifier on made-up 10x10 colour tiles of three kinds (horizontal stripes,
# vertical stripes, plain noise), report a running loss, save and reload the weights, and count hits per kind.
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(1)
kinds = ("across", "down", "noise")


def make_tiles(n):
    """n noisy tiles; a third get bright rows, a third bright columns."""
    tiles = 0.5 * torch.randn(n, 3, 10, 10)
    labels = torch.arange(n) % 3
    tiles[labels == 0, :, ::2, :] += 1.0
    tiles[labels == 1, :, :, ::2] += 1.0
    return tiles, labels


tiles, labels = make_tiles(48)
loader = DataLoader(TensorDataset(tiles, labels), batch_size=6, shuffle=True)


class TileNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv_a = nn.Conv2d(3, 5, 3)                 # 10 -> 8, pooled to 4
        self.pool = nn.MaxPool2d(2, 2)
        self.conv_b = nn.Conv2d(5, 6, 3, padding=1)      # 4 -> 4, pooled to 2
        self.fc_a = nn.Linear(6 * 2 * 2, 12)
        self.fc_b = nn.Linear(12, 3)

    def forward(self, x):
        x = self.pool(F.relu(self.conv_a(x)))
        x = self.pool(F.relu(self.conv_b(x)))
        x = F.relu(self.fc_a(torch.flatten(x, 1)))
        return self.fc_b(x)


net = TileNet()
print(net)
params = list(net.parameters())
print(len(params), params[2].size())
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
for epoch in range(1, 6):
    recent = 0.0
    for i, (xb, yb) in enumerate(loader, 1):
        optimizer.zero_grad()
        loss = criterion(net(xb), yb)
        loss.backward()
        optimizer.step()
        recent += loss.item()
        if i % 4 == 0:                                   # the mean of the last four batches
            print(f"epoch {epoch}, batch {i}: loss {recent / 4:.3f}")
            recent = 0.0
print("training done")

path = "./_tmp_tile_net.pth"
torch.save(net.state_dict(), path)
reloaded = TileNet()
print(reloaded.load_state_dict(torch.load(path, weights_only=True)))
os.remove(path)

xb, yb = next(iter(loader))
_, guess = torch.max(reloaded(xb), 1)
print("truth: ", " ".join(f"{kinds[k]:6s}" for k in yb[:5]))
print("guess: ", " ".join(f"{kinds[k]:6s}" for k in guess[:5]))
test_tiles, test_labels = make_tiles(30)
hits = {k: 0 for k in kinds}
seen = {k: 0 for k in kinds}
with torch.no_grad():
    _, guess = torch.max(reloaded(test_tiles).data, 1)
    for truth, g in zip(test_labels, guess):
        seen[kinds[truth]] += 1
        hits[kinds[truth]] += int(truth == g)
right = (guess == test_labels).sum().item()
print(f"new tiles: {right} of {test_labels.size(0)} right ({100 * right // test_labels.size(0)} %)")
for kind in kinds:
    print(f"{kind:6s}: {100 * float(hits[kind]) / seen[kind]:.1f} %")
