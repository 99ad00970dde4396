# Joining tensors and building coordinate grids, the way the tensor tutorials and d2l's
# preliminaries show them: hstack/vstack/dstack/column_stack, meshgrid, broadcast_to, tile.
import torch

a = torch.tensor([1.0, 2.0, 3.0])
b = torch.tensor([4.0, 5.0, 6.0])
print("hstack:", torch.hstack((a, b)))
print("vstack:\n", torch.vstack((a, b)))
print("column_stack:\n", torch.column_stack((a, b)))
d = torch.dstack((a, b))
print("dstack shape:", d.shape)
print(d)

m = torch.arange(6.0).reshape(2, 3)
print(torch.vstack([m, a]))
print(torch.hstack([m, m]).shape, torch.row_stack([m, m]).shape)

# a grid of points, the "ij" way (rows follow the first tensor) and the "xy" way (numpy's)
xs = torch.linspace(-1, 1, steps=3)
ys = torch.linspace(0, 2, steps=2)
gx, gy = torch.meshgrid(xs, ys, indexing="ij")
print(gx.shape, gy.shape)
print(gx)
print(gy)
gx, gy = torch.meshgrid(xs, ys, indexing="xy")
print(gx)
print(gy)
z = gx ** 2 + gy ** 2
print("z:\n", z)

# broadcasting made explicit
row = torch.tensor([10, 20, 30])
print(torch.broadcast_to(row, (2, 3)))
print(row.broadcast_to(3, 3).sum(0))
print(row.tile((2,)), row.tile(2, 2))
print(m.tile((2, 1)))

# a student forgets that hstack takes a sequence
try:
    torch.hstack(a, b)
except TypeError as e:
    print("TypeError:", e)
try:
    torch.vstack([a, torch.ones(4)])
except RuntimeError as e:
    print("RuntimeError:", e)

# the old call without indexing still works, with PyTorch's warning
u, v = torch.meshgrid(torch.arange(2), torch.arange(3))
print(u)
print(v)
