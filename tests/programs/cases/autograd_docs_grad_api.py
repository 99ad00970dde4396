# The autograd notes' small examples: requires_grad_ on an existing tensor, detach, retain_grad on a
# non-leaf, torch.autograd.grad with create_graph for a second derivative, and hooks on tensors.
import torch

a = torch.randn(2, 3)
a = (a - 1) ** 2 / (a.abs() + 1)          # made before anyone asked for gradients
print(a.requires_grad)
a.requires_grad_(True)
print(a.requires_grad)
b = (a * 2).mean()
print(b.grad_fn)

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
z = y.detach()
print(z.requires_grad, z.is_leaf, y.is_leaf, z.grad_fn)
y.retain_grad()
w = (y ** 2).mean()
w.backward()
print(x.grad, y.grad)
print(x.is_leaf, y.grad_fn, w.grad_fn.next_functions)

# a second derivative
x = torch.tensor(2.0, requires_grad=True)
f = x ** 3 + 2 * x ** 2
(df,) = torch.autograd.grad(f, x, create_graph=True)
print(df, df.requires_grad)
(d2f,) = torch.autograd.grad(df, x)
print(d2f)

xs = torch.linspace(-1, 1, 5, requires_grad=True)
ys = torch.sin(xs)
grads = torch.autograd.grad(ys.sum(), xs, create_graph=True)[0]
print(grads)
second = torch.autograd.grad(grads.sum(), xs)[0]
print(second, -torch.sin(xs))

# hooks on tensors
v = torch.tensor([0.0, 0.0, 0.0], requires_grad=True)
h = v.register_hook(lambda grad: grad * 2)
v.backward(torch.tensor([1.0, 2.0, 3.0]))
print(v.grad)
h.remove()
v.grad = None
v.backward(torch.tensor([1.0, 2.0, 3.0]))
print(v.grad)

seen = []
p = torch.ones(3, requires_grad=True)
q = p * 4
q.register_hook(lambda g: seen.append(g.clone()))
q.register_hook(lambda g: g + 1)
q.sum().backward()
print(seen, p.grad)

# grad of a non-scalar needs grad_outputs
u = torch.randn(3, requires_grad=True)
out = u * 2
try:
    torch.autograd.grad(out, u)
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.autograd.grad(out, u, grad_outputs=torch.ones_like(out)))
with torch.no_grad():
    nz = u * 2
print(nz.requires_grad, (u * 2).detach().requires_grad)
try:
    (u * 2).sum().backward()
    (u * 2).sum().backward()
    print(u.grad)
    r = u.exp().sum()
    r.backward()
    r.backward()
except RuntimeError as e:
    print("RuntimeError:", e)
