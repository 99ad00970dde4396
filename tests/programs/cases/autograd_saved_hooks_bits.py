# Less common corners that teaching notes show once: hooks on the tensors saved for backward, bitwise
# operators on integer masks, the singular values of a matrix, a histogram, and torch.<op>_ in place.
import torch

log = []


def pack_hook(t):
    log.append(("pack", tuple(t.shape)))
    return t


def unpack_hook(t):
    log.append(("unpack", tuple(t.shape)))
    return t


a = torch.randn(3, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = a * a
    z = a.sin().sum()
print(log)
y.sum().backward()
z.backward()
print(log[-2:], a.grad)

m = torch.tensor([0b1100, 0b1010, 7])
k = torch.tensor([0b1010, 0b0110, 1])
print(torch.bitwise_and(m, k), torch.bitwise_or(m, k), torch.bitwise_xor(m, k), torch.bitwise_not(m))
print(m & k, m | k, m ^ k, ~m, m.bitwise_xor(3))
flags = torch.tensor([True, False, True])
print(torch.bitwise_xor(flags, torch.tensor([True, True, False])), ~flags)
try:
    torch.bitwise_xor(torch.tensor([1.0]), torch.tensor([2.0]))
except Exception as e:
    print(type(e).__name__, e)

A = torch.tensor([[3.0, 1.0], [1.0, 3.0], [0.0, 2.0]])
U, S, V = torch.svd(A)
print(S, U.shape, V.shape)
print(torch.dist(U @ torch.diag(S) @ V.T, A) < 1e-5)
print(torch.linalg.svd(A, full_matrices=False).S, torch.linalg.svdvals(A))
B = torch.randn(4, 3, requires_grad=True)
s = torch.linalg.svd(B).S
s.sum().backward()
print(s, B.grad.shape)

x = torch.randn(500)
hist = torch.histc(x, bins=6, min=-3, max=3)
print(hist, hist.sum())
counts, edges = torch.histogram(x, bins=4)
print(counts, edges)
print(torch.histogram(x, bins=3, range=(-1., 1.), density=True))

t = torch.tensor([0.5, 1.0, 2.0])
torch.sin_(t)
print(t)
torch.exp_(t)
print(t)
torch.clamp_(t, max=2.0)
print(t, torch.sqrt_(t), torch.zero_(t))
