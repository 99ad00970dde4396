# A small classifier with batch normalization: the layer behaves differently in training and in evaluation.
import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(
    nn.Linear(4, 8),
    nn.BatchNorm1d(8),
    nn.ReLU(),
    nn.Linear(8, 3),
)
print(model)
print("buffers:", [name for name, _ in model.named_buffers()])
print("state_dict keys:", list(model.state_dict().keys()))

X = torch.randn(32, 4)
y = (X[:, 0] + X[:, 1] > 0).long() + (X[:, 2] > 1).long()
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

bn = model[1]
print("running_mean before:", bn.running_mean)
for epoch in range(5):
    model.train()
    for i in range(0, 32, 8):
        xb, yb = X[i:i + 8], y[i:i + 8]
        loss = loss_fn(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}, batches tracked {bn.num_batches_tracked.item()}")

print("running_mean after:", bn.running_mean)
print("running_var after:", bn.running_var)
print("bn weight grad:", bn.weight.grad)

model.eval()
with torch.no_grad():
    logits = model(X[:5])
    print("eval logits:\n", logits)
    print("predictions:", logits.argmax(dim=1), "targets:", y[:5])
    # in eval mode one sample is fine; in training mode it is not
    print(model(X[:1]))

model.train()
try:
    model(X[:1])
except ValueError as e:
    print("ValueError:", e)

out = bn(torch.randn(6, 8))
print(type(out.grad_fn).__name__, out.shape)
bn2 = nn.BatchNorm2d(3, momentum=None, affine=False)
imgs = torch.randn(2, 3, 4, 4)
print(bn2, "centred:", bool(bn2(imgs).mean(dim=(0, 2, 3)).abs().max() < 1e-6))
print(bn2.running_var, bn2.num_batches_tracked)
bn2(torch.randn(4, 3, 8))
