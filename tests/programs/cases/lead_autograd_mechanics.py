# Autograd mechanics: hooks, retain_grad, higher derivatives, Jacobians and Hessians, errors students meet.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x.pow(3)
y.retain_grad()
h = y.register_hook(lambda g: g * 10)
z = y.sum()
z.backward()
print(x.grad, y.grad)
h.remove()
x.grad = None
g, = torch.autograd.grad((x ** 3).sum(), x, create_graph=True)
print(g, g.grad_fn)
g2, = torch.autograd.grad(g.sum(), x)
print(g2)
print(torch.autograd.functional.jacobian(lambda t: t ** 2 + t.sum(), x))
print(torch.autograd.functional.hessian(lambda t: (t ** 3).sum(), x))
a = torch.ones(2, requires_grad=True)
b = a * 3
b.sum().backward()
try:
    b.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:60])
try:
    torch.ones(2).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    (a * 2).backward()
except RuntimeError as e:
    print("RuntimeError:", e)
leaf = torch.zeros(3, requires_grad=True)
try:
    leaf += 1
except RuntimeError as e:
    print("RuntimeError:", e)
with torch.no_grad():
    leaf += 1
print(leaf, leaf.is_leaf, leaf.grad_fn)
w = torch.randn(3, requires_grad=True)
out = (w.exp() * 2).sum()
print(out.grad_fn.next_functions)
print(x.detach().numpy(), x.grad is None)
try:
    x.numpy()
except RuntimeError as e:
    print("RuntimeError:", e)
