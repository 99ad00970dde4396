# Learning-rate warmup: LambdaLR with a linear warmup then cosine decay, and the same built from LinearLR + SequentialLR.
import math
import torch
from torch import nn
from torch.optim.lr_scheduler import LambdaLR, LinearLR, CosineAnnealingLR, SequentialLR

torch.manual_seed(7)
model = nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
warmup, total = 3, 10


def warmup_cosine(step):
    if step < warmup:
        return (step + 1) / warmup
    progress = (step - warmup) / (total - warmup)
    return 0.5 * (1 + math.cos(math.pi * progress))


scheduler = LambdaLR(optimizer, lr_lambda=warmup_cosine)
print("initial lr:", optimizer.param_groups[0]["lr"], "initial_lr:", optimizer.param_groups[0]["initial_lr"])
X = torch.randn(20, 4)
y = X.sum(dim=1, keepdim=True)
for step in range(total):
    loss = nn.functional.mse_loss(model(X), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    scheduler.step()
    print(f"step {step}: lr now {scheduler.get_last_lr()[0]:.5f}, loss {loss.item():.4f}")
print("last_epoch:", scheduler.last_epoch)
print("state_dict keys:", sorted(scheduler.state_dict().keys()))

# Two parameter groups, one lambda each.
model = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
optimizer = torch.optim.SGD([{"params": model[0].parameters(), "lr": 0.01},
                             {"params": model[1].parameters()}], lr=0.1)
scheduler = LambdaLR(optimizer, lr_lambda=[lambda s: 0.5 ** s, lambda s: s + 1])
for _ in range(3):
    optimizer.step()
    scheduler.step()
    print([f"{lr:.4f}" for lr in scheduler.get_last_lr()])

# Warmup with the built-in schedulers chained together.
optimizer = torch.optim.SGD(nn.Linear(2, 1).parameters(), lr=0.2)
scheduler = SequentialLR(optimizer, schedulers=[LinearLR(optimizer, start_factor=0.25, total_iters=2),
                                                CosineAnnealingLR(optimizer, T_max=4)], milestones=[2])
lrs = []
for _ in range(7):
    optimizer.step()
    scheduler.step()
    lrs.append(round(scheduler.get_last_lr()[0], 5))
print("sequential:", lrs)

# Mistakes: stepping the scheduler before the optimizer warns; a list of lambdas of the wrong length.
optimizer = torch.optim.SGD(nn.Linear(2, 1).parameters(), lr=0.1)
scheduler = LambdaLR(optimizer, lambda s: 1.0)
scheduler.step()
try:
    LambdaLR(optimizer, lr_lambda=[lambda s: 1.0, lambda s: 2.0])
except ValueError as e:
    print("ValueError:", e)
