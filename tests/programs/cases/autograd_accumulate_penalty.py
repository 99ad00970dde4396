# Gradient accumulation over micro-batches, a gradient penalty with create_graph, tensor hooks, and the errors a
# second backward or a wrong retain_graph gives.
import torch
from torch import nn

torch.manual_seed(47)
X = torch.randn(12, 3)
y = torch.randn(12, 1)
model = nn.Linear(3, 1)
loss_fn = nn.MSELoss()

# One big batch...
model.zero_grad()
loss_fn(model(X), y).backward()
full = model.weight.grad.clone()
# ...equals four micro-batches whose losses are divided by four.
model.zero_grad()
for chunk_x, chunk_y in zip(X.chunk(4), y.chunk(4)):
    (loss_fn(model(chunk_x), chunk_y) / 4).backward()
print("accumulated equals full batch:", torch.allclose(full, model.weight.grad, atol=1e-6))
print("grad:", model.weight.grad.round(decimals=4))

# Forgetting zero_grad doubles the gradient.
loss_fn(model(X), y).backward()
print("without zero_grad:", torch.allclose(model.weight.grad, 2 * full, atol=1e-6))

# A gradient penalty: the norm of d(output)/d(input) as part of the loss.
x = X.clone().requires_grad_(True)
out = torch.tanh(model(x)).sum()
grad_x, = torch.autograd.grad(out, x, create_graph=True)
print("grad_x", grad_x.shape, grad_x.grad_fn is not None)
penalty = ((grad_x.norm(dim=1) - 1) ** 2).mean()
print(f"penalty {penalty.item():.4f}", penalty.grad_fn)
model.zero_grad()
penalty.backward()
print("penalty reaches the weights:", model.weight.grad.abs().sum().item() > 0)

# Hooks on a tensor see (and may change) its gradient.
w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
seen = []
w.register_hook(lambda g: seen.append(g.clone()))
h = w.register_hook(lambda g: g * 10)
(w ** 2).sum().backward()
print("hook saw", seen[0], "grad", w.grad)
h.remove()
mid = w * 2
mid.retain_grad()
mid.sum().backward()
print("retain_grad on a middle tensor:", mid.grad, "is_leaf:", mid.is_leaf)

# Backward twice through the same graph.
a = torch.tensor(2.0, requires_grad=True)
b = a.exp() * 3
b.backward(retain_graph=True)
b.backward()
print("twice with retain_graph:", a.grad)
c = a.exp() * 3
c.backward()
try:
    c.backward()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.autograd.grad(c, a)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    (torch.ones(2, requires_grad=True) * 2).backward()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.autograd.grad((a * 2), torch.tensor(1.0, requires_grad=True))
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.autograd.grad(a * 2, [a, torch.tensor(1.0, requires_grad=True)], allow_unused=True))
print(torch.autograd.grad(a * 2, [a, torch.tensor(1.0, requires_grad=True)], allow_unused=True,
                          materialize_grads=True))
