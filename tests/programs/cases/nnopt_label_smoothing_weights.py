# CrossEntropyLoss's options a classifier tutorial reaches for: class weights, label smoothing, ignore_index,
# probability targets, and the reductions.
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(43)
logits = torch.randn(6, 3, requires_grad=True)
targets = torch.tensor([0, 2, 1, 1, 0, 2])
print("logits\n", logits.detach().round(decimals=3))

plain = nn.CrossEntropyLoss()(logits, targets)
print(f"plain {plain.item():.4f}", plain.grad_fn)
# The same from log_softmax and nll_loss, and from picking by hand.
log_probs = F.log_softmax(logits, dim=1)
print(f"nll_loss {F.nll_loss(log_probs, targets).item():.4f}")
print(f"by hand {(-log_probs[torch.arange(6), targets]).mean().item():.4f}")

weights = torch.tensor([1.0, 2.0, 0.5])
weighted = nn.CrossEntropyLoss(weight=weights)(logits, targets)
print(f"weighted {weighted.item():.4f}")
per_sample = nn.CrossEntropyLoss(weight=weights, reduction="none")(logits, targets)
print("per sample:", per_sample.detach().round(decimals=4))
print(f"weighted mean divides by the weights' sum: {(per_sample.sum() / weights[targets].sum()).item():.4f}")

for eps in (0.0, 0.1, 0.3):
    print(f"label_smoothing={eps}: {F.cross_entropy(logits, targets, label_smoothing=eps).item():.4f}")
print(f"smoothing + weights: {F.cross_entropy(logits, targets, weight=weights, label_smoothing=0.1).item():.4f}")

padded = torch.tensor([0, -100, 1, 1, -100, 2])
print(f"ignore_index: {F.cross_entropy(logits, padded).item():.4f}")
print("ignored rows get no gradient:")
loss = F.cross_entropy(logits, padded)
grad, = torch.autograd.grad(loss, logits)
print(grad.round(decimals=4))
print(f"custom ignore_index=2: {F.cross_entropy(logits, targets, ignore_index=2).item():.4f}")

soft = F.one_hot(targets, 3).float() * 0.8 + 0.2 / 3
print("soft targets rows sum to", soft.sum(dim=1))
print(f"probability targets: {F.cross_entropy(logits, soft).item():.4f}")
print(f"sum reduction: {F.cross_entropy(logits, targets, reduction='sum').item():.4f}")

# Sequences: (batch, classes, length) logits with (batch, length) targets.
seq_logits = torch.randn(2, 3, 4)
seq_targets = torch.tensor([[0, 1, 2, -100], [2, 2, 1, 0]])
print(f"sequence loss {F.cross_entropy(seq_logits, seq_targets).item():.4f}")

for bad in (lambda: F.cross_entropy(logits, targets, weight=torch.ones(4)),
            lambda: F.cross_entropy(logits, targets.unsqueeze(1)),
            lambda: F.cross_entropy(logits, torch.tensor([0, 1, 2, 3, 0, 1])),
            lambda: F.cross_entropy(logits, soft[:, :2]),
            lambda: F.cross_entropy(logits, targets, label_smoothing=1.5),
            lambda: F.cross_entropy(logits, targets, reduction="avg")):
    try:
        bad()
    except Exception as e:
        print(type(e).__name__ + ":", e)
