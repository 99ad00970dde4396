# Preliminaries in the style of an interactive textbook, on our own small numbers: making arrays,
# arithmetic and broadcasting, indexing and assignment, memory, reductions, products, norms and a first
# look at gradients.
import torch

days = torch.arange(10, dtype=torch.float32)
print(days, days.numel(), days.shape)
fortnight = days.reshape(2, 5)
print(fortnight)
print(torch.zeros((3, 1, 2)))
print(torch.ones((2, 2, 3)))
print(torch.tensor([[7, 0, 3], [1, 9, 4]]))

prices = torch.tensor([3.0, 0.5, 9, 2])
qty = torch.tensor([1, 4, 2, 3])              # an integer tensor: the results are float all the same
print(prices + qty, prices - qty, prices * qty, prices / qty, prices ** qty)
print(torch.exp(prices - 2))

P = torch.arange(6, dtype=torch.float32).reshape((2, 3))
Q = torch.tensor([[1.0, 5, 2], [4, 0, 3]])
print(torch.cat((P, Q), dim=0), torch.cat((P, Q), dim=1))
print(P > Q, P == Q)
print(Q.sum())
col = torch.arange(4).reshape((4, 1))
row = torch.arange(3).reshape((1, 3)) * 10
print(col, row, col + row)                    # (4, 1) and (1, 3) broadcast to (4, 3)

print(Q[0], Q[-1, 1:])
Q[0, 1] = -1
Q[1, :] = 8
print(Q)
old = id(P)
P = P * 2                                     # a new tensor: P now names another object
print(id(P) == old)
R = torch.zeros_like(Q)
old = id(R)
R[:] = P - Q                                  # written into R's own memory
print(id(R) == old)
arr = R.numpy()
back = torch.from_numpy(arr)
print(type(arr).__name__, type(back).__name__)
half = torch.tensor([2.5])
print(half, half.item(), float(half), int(half))

M = torch.arange(12, dtype=torch.float32).reshape(4, 3)
print(M.T, M.sum(axis=1), M.sum(axis=[0, 1]), M.mean(), M.sum() / M.numel())
print(M.mean(axis=1), M.sum(axis=1) / M.shape[1])
per_row = M.sum(axis=0, keepdims=True)
print(per_row, M / per_row, M.cumsum(axis=1))
v = torch.tensor([1.0, -2.0, 0.5])
ones = torch.ones(3, dtype=torch.float32)
print(v, ones, torch.dot(v, ones), torch.sum(v * ones))
print(M.shape, v.shape, torch.mv(M, v), M @ v)
N = torch.full((3, 2), 0.5)
print(torch.mm(M, N), M @ N)
d = torch.tensor([6.0, 8.0])
print(torch.norm(d), torch.abs(d).sum(), torch.norm(torch.ones((2, 8))))

x = torch.arange(1.0, 5.0)
x.requires_grad_(True)
print(x.grad)                                 # nothing yet
f = 3 * torch.dot(x, x)
print(f)
f.backward()
print(x.grad, x.grad == 6 * x)
x.grad.zero_()                                # gradients add up unless cleared
f = (x * 2).sum()
f.backward()
print(x.grad)
x.grad.zero_()
g = x ** 3
g.backward(gradient=torch.ones(len(g)))
print(x.grad)
x.grad.zero_()
g = x * x
fixed = g.detach()                            # treated as a constant from here on
h = fixed * x
h.sum().backward()
print(x.grad == fixed)
