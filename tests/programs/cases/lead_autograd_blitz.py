# Autograd step by step: a graph grown from one leaf, its grad_fn, backward from a scalar, backward from a
# vector with weights we choose, and the places where tracking stops (no_grad, detach).
import torch

w = torch.ones(3, 2, requires_grad=True)     # the leaf we want gradients for
print(w)
shifted = w - 0.5
print(shifted)
print(shifted.grad_fn)                       # how `shifted` was made, recorded for backward
cubed = 4 * shifted ** 3
score = cubed.mean()
print(cubed, score)

m = torch.randn(3, 3)
m = (m + 2) / (m * m + 1)                    # made from plain tensors: nothing recorded
print(m.requires_grad)
m.requires_grad_(True)                       # from now on operations on m are recorded
print(m.requires_grad)
print((m @ m.t()).sum().grad_fn)

score.backward()                             # d score / d w = 12 * (w - 0.5)^2 / 6 = 0.5 everywhere
print(w.grad)

v = torch.randn(4, requires_grad=True)
u = v * 3
triplings = 1
while u.data.norm() < 500:                   # .data: look at the values without recording
    u = u * 3
    triplings += 1
print(triplings, u)
weights = torch.tensor([1.0, 0.5, 0.25, 0.125])
u.backward(weights)                          # u is not a scalar: say how to weigh its entries
print(v.grad)                                # weights * 3 ** triplings
print(v.requires_grad, (v * v).requires_grad)
with torch.no_grad():
    print((v * v).requires_grad)
frozen = v.detach()                          # the same numbers, cut off from the graph
print(frozen.requires_grad, torch.equal(frozen, v), v.eq(frozen).all())
