# Scalar expressions in the manner of a micrograd lecture: one-element double tensors, a tanh neuron,
# and the values and gradients read back with .data.item() and .grad.item().
import torch

x1 = torch.Tensor([2.0]).double()
x1.requires_grad = True
x2 = torch.Tensor([0.0]).double()
x2.requires_grad = True
w1 = torch.Tensor([-3.0]).double()
w1.requires_grad = True
w2 = torch.Tensor([1.0]).double()
w2.requires_grad = True
b = torch.Tensor([6.8813735870195432]).double()
b.requires_grad = True
n = x1 * w1 + x2 * w2 + b
o = torch.tanh(n)

print(o.data.item())
o.backward()

print('---')
print('x2', x2.grad.item())
print('w2', w2.grad.item())
print('x1', x1.grad.item())
print('w1', w1.grad.item())
print(o, o.dtype, x1.grad)

a = torch.Tensor([-4.0]).double()
b = torch.Tensor([2.0]).double()
a.requires_grad = True
b.requires_grad = True
c = a + b
d = a * b + b ** 3
c = c + c + 1
c = c + 1 + c + (-a)
d = d + d * 2 + (b + a).relu()
d = d + 3 * d + (b - a).relu()
e = c - d
f = e ** 2
g = f / 2.0
g = g + 10.0 / f
g.backward()
print(f'{g.data.item():.4f}')
print(f'{a.grad.item():.4f}')
print(f'{b.grad.item():.4f}')
print(g.item(), a.grad.item(), b.grad.item())

h = 0.0001
def f2(x):
    return 3 * x ** 2 - 4 * x + 5
print(f2(3.0), (f2(3.0 + h) - f2(3.0)) / h)
t = torch.tensor(3.0, requires_grad=True)
y = f2(t)
y.backward()
print(y.item(), t.grad.item(), t.grad)
z = torch.Tensor([1.5]).double().requires_grad_()
(z.exp() * z).backward()
print(z.grad.data.item(), z.grad)
