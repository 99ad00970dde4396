# Matrices in a linear-algebra primer: triangles, diagonals, determinant, inverse and a linear system.
import torch

A = torch.tensor([[4.0, 7.0, 2.0],
                  [3.0, 6.0, 1.0],
                  [2.0, 5.0, 3.0]])
print("A =", A)
print("lower triangle:\n", torch.tril(A))
print("strictly upper:\n", A.triu(diagonal=1))
print("diagonal:", torch.diag(A), A.diagonal(), A.diagonal(offset=-1))
print("diag matrix from a vector:\n", torch.diag(torch.tensor([1.0, 2.0, 3.0])))
print("trace:", torch.trace(A), "sum of diagonal:", A.diagonal().sum())

# a causal mask as in attention
T = 4
mask = torch.tril(torch.ones(T, T))
scores = torch.arange(16.0).reshape(T, T)
scores = scores.masked_fill(mask == 0, float("-inf"))
print(torch.softmax(scores, dim=-1))

# determinant and inverse
print("det(A) =", torch.det(A))
print("det of a 2x2:", torch.linalg.det(torch.tensor([[1.0, 2.0], [3.0, 4.0]])))
A_inv = torch.inverse(A)
print("inverse:\n", A_inv)
print("A @ A_inv is I:", torch.allclose(A @ A_inv, torch.eye(3), atol=1e-5))
print(torch.linalg.inv(torch.tensor([[2.0, 0.0], [0.0, 4.0]])))

# solving A x = b two ways
b = torch.tensor([1.0, 2.0, 3.0])
x = torch.linalg.solve(A, b)
print("x =", x)
print("A @ x =", A @ x)
print("via the inverse:", A_inv @ b)
B = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
print(torch.linalg.solve(A, B).shape)

# powers and eye
print(torch.linalg.matrix_power(torch.tensor([[1.0, 1.0], [1.0, 0.0]]), 10))
print(torch.matrix_power(torch.eye(2) * 2, 3))
sign, logabsdet = torch.linalg.slogdet(A)
print(sign, logabsdet, torch.logdet(A))
print(torch.slogdet(-torch.eye(3)))

# batched
batch = torch.stack([torch.eye(2) * k for k in range(1, 4)])
print(torch.det(batch), torch.inverse(batch)[2])
print(torch.diag_embed(torch.tensor([[1.0, 2.0], [3.0, 4.0]])))
