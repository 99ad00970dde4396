# Gradient clipping (by norm and by value) and weight decay (SGD's L2, Adam's and AdamW's) side by side.
import torch
from torch import nn

torch.manual_seed(29)
X = torch.randn(32, 4)
y = X @ torch.tensor([[3.0], [-1.0], [0.0], [0.5]]) + 2.0
# A few outliers make some gradients huge.
y[:3] += 40.0


def make_model():
    torch.manual_seed(0)
    return nn.Linear(4, 1)


# Clipping: what clip_grad_norm_ returns and what it does to the gradients.
model = make_model()
loss = nn.functional.mse_loss(model(X), y)
loss.backward()
before = torch.cat([p.grad.flatten() for p in model.parameters()])
total_norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
after = torch.cat([p.grad.flatten() for p in model.parameters()])
print(f"norm before {total_norm.item():.4f}  after {after.norm().item():.4f}")
print("same direction:", torch.allclose(before / before.norm(), after / after.norm(), atol=1e-6))
print("returned:", type(total_norm).__name__, total_norm.dtype, total_norm.shape)
nn.utils.clip_grad_value_(model.parameters(), clip_value=0.1)
print("after clip by value:", torch.cat([p.grad.flatten() for p in model.parameters()]).round(decimals=4))
model.zero_grad()
print("grad after zero_grad:", model.weight.grad)
print("inf norm:", nn.utils.clip_grad_norm_(model.parameters(), 1.0, norm_type="inf"))


def train(make_optimizer, clip=None, steps=30):
    model = make_model()
    optimizer = make_optimizer(model.parameters())
    for _ in range(steps):
        loss = nn.functional.mse_loss(model(X), y)
        optimizer.zero_grad()
        loss.backward()
        if clip is not None:
            nn.utils.clip_grad_norm_(model.parameters(), clip)
        optimizer.step()
    return loss.item(), model.weight.detach().norm().item(), model.bias.item()


runs = {
    "SGD": lambda p: torch.optim.SGD(p, lr=0.05),
    "SGD clip 5": (lambda p: torch.optim.SGD(p, lr=0.05), 5.0),
    "SGD wd 0.1": lambda p: torch.optim.SGD(p, lr=0.05, weight_decay=0.1),
    "Adam": lambda p: torch.optim.Adam(p, lr=0.1),
    "Adam wd 0.1": lambda p: torch.optim.Adam(p, lr=0.1, weight_decay=0.1),
    "AdamW wd 0.1": lambda p: torch.optim.AdamW(p, lr=0.1, weight_decay=0.1),
}
print(f"{'run':14} {'loss':>9} {'|w|':>7} {'bias':>7}")
for name, spec in runs.items():
    make, clip = spec if isinstance(spec, tuple) else (spec, None)
    loss, wnorm, bias = train(make, clip)
    print(f"{name:14} {loss:9.3f} {wnorm:7.3f} {bias:7.3f}")

# Weight decay only on weights, not biases: two parameter groups.
model = make_model()
optimizer = torch.optim.SGD([{"params": [model.weight], "weight_decay": 0.5},
                             {"params": [model.bias], "weight_decay": 0.0}], lr=0.1)
print([g["weight_decay"] for g in optimizer.param_groups])
print(optimizer.defaults)
try:
    torch.optim.SGD(model.parameters(), lr=0.1, weight_decay=-1)
except ValueError as e:
    print("ValueError:", e)
try:
    nn.utils.clip_grad_norm_([torch.ones(2, requires_grad=True)], max_norm=1.0, error_if_nonfinite=True)
    print("no gradients: nothing to clip")
except RuntimeError as e:
    print("RuntimeError:", e)
p = torch.ones(2, requires_grad=True)
p.grad = torch.tensor([float("nan"), 1.0])
try:
    nn.utils.clip_grad_norm_([p], max_norm=1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError:", e)
