# einsum, tensordot and kron, as a tutorial on tensor contractions walks through them.
import torch

torch.manual_seed(0)
a = torch.arange(6.0).reshape(2, 3)
b = torch.arange(12.0).reshape(3, 4)
v = torch.tensor([1.0, 2.0, 3.0])
w = torch.tensor([0.5, -1.0, 2.0])

print("transpose:", torch.einsum("ij->ji", a))
print("sum:", torch.einsum("ij->", a))
print("column sums:", torch.einsum("ij->j", a))
print("row sums:", torch.einsum("ij->i", a))
print("matrix-vector:", torch.einsum("ij,j->i", a, v))
print("matrix-matrix:", torch.einsum("ik,kj->ij", a, b))
print("dot:", torch.einsum("i,i->", v, w))
print("outer:", torch.einsum("i,j->ij", v, w))
print("hadamard:", torch.einsum("ij,ij->ij", a, a))
print("trace:", torch.einsum("ii", torch.eye(3) * 2))
print("diagonal:", torch.einsum("ii->i", b[:, :3]))
print("implicit:", torch.einsum("ij,jk", a, b).shape, torch.einsum("ba", a).shape)

x = torch.randn(2, 3, 4)
y = torch.randn(2, 4, 5)
print("batch matmul:", torch.einsum("bij,bjk->bik", x, y).shape,
      torch.allclose(torch.einsum("bij,bjk->bik", x, y), torch.bmm(x, y)))
print("ellipsis:", torch.einsum("...ij->...ji", x).shape)

# attention scores with einsum
q = torch.randn(1, 2, 3, 4, requires_grad=True)
k = torch.randn(1, 2, 5, 4)
scores = torch.einsum("bhqd,bhkd->bhqk", q, k) / 4 ** 0.5
print(scores.shape, scores.grad_fn.name())
scores.softmax(-1).sum().backward()
print(q.grad.abs().sum() < 1e-5)

# gradients through a contraction
W = torch.ones(3, 2, requires_grad=True)
out = torch.einsum("i,ij->j", v, W)
print(out)
out.sum().backward()
print(W.grad)

# tensordot
A = torch.arange(60.0).reshape(3, 4, 5)
B = torch.arange(24.0).reshape(4, 3, 2)
print(torch.tensordot(A, B, dims=([1, 0], [0, 1])))
print(torch.tensordot(a, b, dims=1))
print(torch.tensordot(v, w, dims=1), torch.tensordot(a, a, dims=2))
print(torch.tensordot(v, w, dims=0).shape)

# Kronecker product
print(torch.kron(torch.eye(2), torch.tensor([[1.0, 2.0], [3.0, 4.0]])))
print(torch.kron(torch.tensor([1, 2]), torch.tensor([1, 10, 100])))

try:
    torch.einsum("ij,jk->ik", a, v)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.einsum("ij,jk->ik", a, a)
except RuntimeError as e:
    print("RuntimeError:", e)
