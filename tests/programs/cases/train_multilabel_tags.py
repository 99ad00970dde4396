# Multi-label classification: each sample may carry several of 4 tags. BCEWithLogits with a pos_weight per tag,
# sigmoid thresholds, per-tag precision and recall, and MultiLabelSoftMarginLoss.
import torch
from torch import nn

torch.manual_seed(59)
X = torch.randn(80, 5)
# Tag k is on when feature k is large; tag 3 is rare.
Y = torch.stack([X[:, 0] > 0, X[:, 1] > 0.3, (X[:, 2] + X[:, 0]) > 0.5, X[:, 3] > 1.2], dim=1).float()
print("tags per sample:", Y.sum(dim=1)[:10])
positives = Y.sum(dim=0)
print("positives per tag:", positives)
pos_weight = (len(Y) - positives) / positives
print("pos_weight:", pos_weight.round(decimals=2))

model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 4))
loss_fn = nn.BCEWithLogitsLoss(pos_weight=pos_weight)
optimizer = torch.optim.Adam(model.parameters(), lr=0.03)
for epoch in range(50):
    logits = model(X)
    loss = loss_fn(logits, Y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if epoch % 10 == 0:
        print(f"epoch {epoch:2d} loss {loss.item():.4f}")

with torch.no_grad():
    probs = torch.sigmoid(model(X))
for threshold in (0.3, 0.5, 0.7):
    predicted = probs > threshold
    tp = (predicted & (Y == 1)).sum(dim=0).float()
    precision = tp / predicted.sum(dim=0).clamp(min=1)
    recall = tp / positives
    exact = (predicted == Y.bool()).all(dim=1).float().mean()
    print(f"threshold {threshold}: precision {precision.round(decimals=2).tolist()} "
          f"recall {recall.round(decimals=2).tolist()} exact match {exact.item():.2f}")
print("hamming accuracy:", f"{((probs > 0.5) == Y.bool()).float().mean().item():.3f}")
print("top-2 tags of sample 0:", probs[0].topk(2).indices.tolist(), "true:", Y[0].nonzero().flatten().tolist())

soft_margin = nn.MultiLabelSoftMarginLoss()(model(X), Y)
print(f"MultiLabelSoftMarginLoss {soft_margin.item():.4f}", soft_margin.grad_fn)
print(f"same as plain BCEWithLogits: {nn.BCEWithLogitsLoss()(model(X), Y).item():.4f}")
targets = torch.tensor([[0, 2, -1, 0]])
print(f"MultiLabelMarginLoss {nn.MultiLabelMarginLoss()(model(X[:1]), targets).item():.4f}")
try:
    nn.BCEWithLogitsLoss(pos_weight=torch.ones(3))(model(X), Y)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    nn.MultiLabelSoftMarginLoss()(model(X), Y[:, :3])
except (RuntimeError, ValueError) as e:
    print(type(e).__name__ + ":", e)
