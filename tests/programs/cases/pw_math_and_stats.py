# Elementwise math and summary statistics: atan2 for angles, hypot for lengths, frac and fmod,
# std_mean/var_mean and aminmax for normalising data, with their gradients.
import math

import torch

torch.manual_seed(0)
points = torch.randn(5, 2)
angles = torch.atan2(points[:, 1], points[:, 0])
radius = torch.hypot(points[:, 0], points[:, 1])
print(angles)
print(radius)
print(torch.allclose(radius * torch.cos(angles), points[:, 0], atol=1e-6))
print(torch.arctan2(torch.tensor(1.0), torch.tensor(-1.0)) / math.pi)

x = torch.tensor([-2.5, -0.75, 0.5, 3.25])
print(x.frac(), torch.frac(x))
print(torch.fmod(x, 2), x.remainder(2), x.fmod(-1.5))
y = x.clone()
y.fmod_(1)
print(y)

data = torch.randn(4, 3) * 2 + 1
std, mean = torch.std_mean(data, dim=0)
print(std, mean)
var, mean = torch.var_mean(data, dim=1, keepdim=True, correction=0)
print(var, mean)
normalised = (data - data.mean(0)) / data.std(0)
print(torch.std_mean(normalised, 0))
lo, hi = data.aminmax()
print(lo, hi)
print(torch.aminmax(data, dim=1))
scaled = (data - lo) / (hi - lo)
print(scaled.min(), scaled.max())

p = torch.randn(3, 2, requires_grad=True)
q = torch.randn(3, 2, requires_grad=True)
theta = torch.atan2(p, q)
print(theta.grad_fn.name())
theta.sum().backward()
print(p.grad)
print(q.grad)

w = torch.randn(6, requires_grad=True)
s, m = torch.std_mean(w)
print(s.grad_fn.name(), m.grad_fn.name())
(s + m).backward()
print(w.grad)

r = torch.randn(2, 3, requires_grad=True)
mn, mx = r.aminmax()
(mx - mn).backward()
print(r.grad)

try:
    torch.atan2(p, 1.0)
except TypeError as e:
    print("TypeError:", e)
try:
    torch.var_mean(torch.tensor([1, 2, 3]))
except RuntimeError as e:
    print("RuntimeError:", e)
