# Norms and distances: vector and matrix norms, normalizing, nearest neighbours with cdist.
import torch

torch.manual_seed(1)
x = torch.tensor([3.0, -4.0])
print(torch.linalg.norm(x), torch.linalg.norm(x, ord=1), torch.linalg.norm(x, float("inf")))
print(torch.linalg.vector_norm(x, ord=3))
M = torch.tensor([[1.0, -2.0], [3.0, 4.0]])
print("frobenius:", torch.linalg.norm(M), torch.linalg.matrix_norm(M))
print("1-norm:", torch.linalg.matrix_norm(M, ord=1), "inf-norm:", torch.linalg.matrix_norm(M, ord=float("inf")))
print("spectral:", torch.linalg.matrix_norm(M, ord=2), "nuclear:", torch.linalg.norm(M, "nuc"))
print("singular values:", torch.linalg.svdvals(M))
print("row norms:", torch.linalg.norm(M, dim=1), torch.linalg.vector_norm(M, dim=0, keepdim=True))

X = torch.randn(5, 3)
unit = X / torch.linalg.norm(X, dim=1, keepdim=True)
print(torch.linalg.norm(unit, dim=1))

# pairwise distances and nearest neighbours
points = torch.tensor([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0], [3.0, 3.0]])
queries = torch.tensor([[0.9, 0.1], [2.5, 2.0]])
D = torch.cdist(queries, points)
print(D)
print("nearest:", D.argmin(dim=1))
print(torch.cdist(queries, points, p=1))
print(torch.cdist(points, points).diagonal())
big = torch.randn(30, 2)
print(torch.cdist(big, big).shape, torch.cdist(big, big)[0, 0])

# gradient of a norm: the unit vector
w = torch.tensor([3.0, 4.0], requires_grad=True)
n = torch.linalg.norm(w)
n.backward()
print(n, w.grad)

# distances are differentiable
p = torch.tensor([[1.0, 1.0]], requires_grad=True)
d = torch.cdist(p, points).sum()
d.backward()
print(d, p.grad)

# a student's mistake: an integer tensor
try:
    torch.linalg.norm(torch.tensor([3, 4]))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.linalg.matrix_norm(x)
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.linalg.norm(torch.tensor([3, 4]).float()))
