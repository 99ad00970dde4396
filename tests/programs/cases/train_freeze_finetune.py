# Fine-tuning: freeze a "pretrained" body, train a new head, then unfreeze with a smaller learning rate for the body.
import torch
from torch import nn

torch.manual_seed(21)
body = nn.Sequential(nn.Linear(5, 12), nn.ReLU(), nn.Linear(12, 12), nn.ReLU())
head = nn.Linear(12, 3)
model = nn.Sequential(body, head)


def count(params):
    return sum(p.numel() for p in params)


print("all parameters:", count(model.parameters()))
for p in body.parameters():
    p.requires_grad_(False)
trainable = [p for p in model.parameters() if p.requires_grad]
print("trainable after freezing the body:", count(trainable))
for name, p in model.named_parameters():
    print(f"  {name:12s} {str(tuple(p.shape)):10s} requires_grad={p.requires_grad}")

X = torch.randn(48, 5)
y = (X[:, 0] > 0).long() + (X[:, 1] > 0.5).long()
print("class counts:", torch.bincount(y, minlength=3))
loss_fn = nn.CrossEntropyLoss()

optimizer = torch.optim.SGD(trainable, lr=0.3)
before = body[0].weight.clone()
for step in range(15):
    loss = loss_fn(model(X), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f"head only, loss {loss.item():.4f}")
print("body changed?", not torch.equal(before, body[0].weight))
print("body grad:", body[0].weight.grad)
out = model(X)
print("output grad_fn:", out.grad_fn, "| first body output's grad_fn:", body(X).grad_fn)

# Unfreeze and give the body a ten-times smaller learning rate through parameter groups.
body.requires_grad_(True)
optimizer = torch.optim.SGD([
    {"params": body.parameters(), "lr": 0.03},
    {"params": head.parameters()},
], lr=0.3, momentum=0.9)
for i, group in enumerate(optimizer.param_groups):
    print(f"group {i}: lr={group['lr']} momentum={group['momentum']} tensors={len(group['params'])}")
for step in range(15):
    loss = loss_fn(model(X), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 5 == 4:
        print(f"step {step}  loss {loss.item():.4f}")
print("body changed now?", not torch.equal(before, body[0].weight))
with torch.no_grad():
    accuracy = (model(X).argmax(dim=1) == y).float().mean()
print(f"accuracy {accuracy:.3f}")

# A classic slip: freezing with `requires_grad = False` on a non-leaf tensor.
hidden = body(X)
try:
    hidden.requires_grad = False
except RuntimeError as e:
    print("RuntimeError:", e)

# A new task with 5 classes: swap the head by its dotted name; the new layer takes the old one's place.
model.set_submodule("1", nn.Linear(12, 5))
print(model)
print([name for name, _ in model.named_parameters()])
print("new head trainable:", model[1].weight.requires_grad, "| body layer:", model.get_submodule("0.2"))
try:
    model.get_submodule("0.2.weight")
except AttributeError as e:
    print("AttributeError:", e)
