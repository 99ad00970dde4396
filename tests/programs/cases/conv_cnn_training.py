# A small CNN as an nn.Sequential: the shape after every layer, a few training steps on made-up
# 'images' (bright top half = class 0, bright bottom half = class 1), accuracy, and a student's mistake.
import torch
from torch import nn

torch.manual_seed(0)
net = nn.Sequential(
    nn.Conv2d(1, 4, kernel_size=3, padding=1), nn.ReLU(),
    nn.MaxPool2d(kernel_size=2, stride=2),
    nn.Conv2d(4, 8, kernel_size=3, padding=1), nn.ReLU(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(),
    nn.Linear(8, 2))
print(net)

X = torch.rand(size=(1, 1, 12, 12), dtype=torch.float32)
for layer in net:
    X = layer(X)
    print(layer.__class__.__name__, 'output shape:\t', X.shape)

n = 32
images = torch.rand(n, 1, 12, 12) * 0.5
labels = torch.randint(0, 2, (n,))
for i in range(n):
    if labels[i] == 0:
        images[i, 0, :6] += 0.5
    else:
        images[i, 0, 6:] += 0.5

loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(net.parameters(), lr=0.5)
for epoch in range(6):
    for start in range(0, n, 8):
        xb, yb = images[start:start + 8], labels[start:start + 8]
        pred = net(xb)
        loss = loss_fn(pred, yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    with torch.no_grad():
        logits = net(images)
        acc = (logits.argmax(1) == labels).float().mean().item()
        print(f"epoch {epoch}: loss {loss_fn(logits, labels).item():.4f}, accuracy {acc:.3f}")

print(net[0].weight.grad.shape)
print(net[0].bias.grad)
print(sum(p.numel() for p in net.parameters()))

# feeding a colour image to a network built for grey ones
color = torch.rand(2, 3, 12, 12)
out = net(color)
