# The kind of check a scalar-autograd project runs against PyTorch: small expressions of one-element
# double tensors, their values and gradients read back with .data.item() and .grad.item().
import torch


def leaf(v):
    t = torch.Tensor([v]).double()
    t.requires_grad = True
    return t


u = leaf(1.5)
s = 3 * u - 2 + u * u
r = (s - 4).relu() + s * (u - 1)
out = r * r / 2 + (-s).relu()
out.backward()
print(out.data.item(), u.grad.item())

p, q = leaf(0.5), leaf(-2.5)
m = p * q - q ** 2
n = (m + 7).relu() * p + 1
n = n + (q - p).relu() - m / 4
k = (n - 2 * m) ** 3
k = k / 5.0 - 3.0 / (k + 10)
k.backward()
print(k.data.item(), p.grad.item(), q.grad.item())

a, w, c = leaf(-1.0), leaf(0.75), leaf(0.4)
pre = a * w + c
act = torch.tanh(pre)
print(act.data.item())
act.backward()
for name, t in (("a", a), ("w", w), ("c", c)):
    print(name, t.grad.item())
