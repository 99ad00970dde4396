# Logistic regression for a two-class problem: BCEWithLogitsLoss, sigmoid probabilities, accuracy and a confusion table.
import torch
from torch import nn

torch.manual_seed(17)
n = 100
X = torch.randn(n, 2)
true_w = torch.tensor([2.0, -3.0])
y = ((X @ true_w + 0.5 + 0.5 * torch.randn(n)) > 0).float()
print("X", X.shape, "y", y.shape, y.dtype, "positives:", int(y.sum().item()))

model = nn.Linear(2, 1)
loss_fn = nn.BCEWithLogitsLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
for epoch in range(40):
    logits = model(X).squeeze(1)
    loss = loss_fn(logits, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if epoch % 8 == 0:
        accuracy = ((logits > 0).float() == y).float().mean()
        print(f"epoch {epoch:2d}: loss {loss.item():.4f}, accuracy {accuracy.item():.2f}")
print("loss grad_fn:", loss.grad_fn)
print("learned:", model.weight.data.round(decimals=2), model.bias.data.round(decimals=2))
w = model.weight.detach().squeeze()
print(f"direction ratio {(w[1] / w[0]).item():.2f} (true -1.50)")

with torch.no_grad():
    probs = torch.sigmoid(model(X).squeeze(1))
    predicted = (probs >= 0.5).float()
tp = ((predicted == 1) & (y == 1)).sum().item()
tn = ((predicted == 0) & (y == 0)).sum().item()
fp = ((predicted == 1) & (y == 0)).sum().item()
fn = ((predicted == 0) & (y == 1)).sum().item()
print(f"TP={tp} TN={tn} FP={fp} FN={fn}")
print(f"precision {tp / (tp + fp):.3f} recall {tp / (tp + fn):.3f}")
print("most confident:", probs.max().item() > 0.99, " least:", f"{(probs - 0.5).abs().min().item():.3f}")

# BCEWithLogits is sigmoid + BCE, but safe for large logits.
z = torch.tensor([-100.0, -2.0, 0.0, 3.0, 100.0])
t = torch.tensor([1.0, 0.0, 1.0, 1.0, 0.0])
print("with logits:", nn.functional.binary_cross_entropy_with_logits(z, t, reduction="none"))
print("two steps:  ", nn.functional.binary_cross_entropy(torch.sigmoid(z), t, reduction="none"))
print("pos_weight:", nn.BCEWithLogitsLoss(pos_weight=torch.tensor(3.0))(z, t).item())
print("sum:", nn.BCEWithLogitsLoss(reduction="sum")(z, t))

# Student mistakes: integer targets, and a shape mismatch from forgetting squeeze.
try:
    loss_fn(model(X).squeeze(1), y.long())
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    loss_fn(model(X), y)
except ValueError as e:
    print("ValueError:", e)
try:
    nn.BCELoss()(torch.tensor([1.5]), torch.tensor([1.0]))
except RuntimeError as e:
    print("RuntimeError:", e)
