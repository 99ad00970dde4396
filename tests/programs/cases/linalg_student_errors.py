# Mistakes a student makes with matrices, and what PyTorch answers.
import torch

def attempt(label, fn):
    try:
        print(label, fn())
    except Exception as e:
        print(label, type(e).__name__ + ":", e)

A = torch.tensor([[1.0, 2.0], [2.0, 4.0]])
attempt("det of a non-square matrix:", lambda: torch.det(torch.ones(2, 3)))
attempt("det of a vector:", lambda: torch.det(torch.ones(3)))
attempt("det of integers:", lambda: torch.det(torch.tensor([[1, 2], [3, 4]])))
attempt("det of a singular matrix:", lambda: torch.det(A))
attempt("inverse of a singular matrix:", lambda: torch.inverse(A))
attempt("solve with a singular matrix:", lambda: torch.linalg.solve(A, torch.ones(2)))
attempt("solve with wrong shapes:", lambda: torch.linalg.solve(torch.eye(2), torch.ones(3)))
attempt("tril of a vector:", lambda: torch.tril(torch.ones(3)))
attempt("diag of a 3-d tensor:", lambda: torch.diag(torch.ones(2, 2, 2)))
attempt("diagonal with the same dims:", lambda: torch.ones(3, 3).diagonal(0, 1, 1))
attempt("cross without a 3:", lambda: torch.linalg.cross(torch.ones(2), torch.ones(2)))
attempt("addmm with the wrong bias:", lambda: torch.addmm(torch.ones(3), torch.ones(2, 3), torch.ones(3, 4)))
attempt("cdist of vectors:", lambda: torch.cdist(torch.ones(3), torch.ones(3)))
attempt("cdist, columns differ:", lambda: torch.cdist(torch.ones(2, 3), torch.ones(2, 2)))
attempt("einsum, too few operands:", lambda: torch.einsum("ij,jk->ik", torch.ones(2, 2)))
attempt("tensordot too many dims:", lambda: torch.tensordot(torch.ones(2, 2), torch.ones(2), dims=2))
attempt("matrix_power of a non-square:", lambda: torch.linalg.matrix_power(torch.ones(2, 3), 2))
attempt("inverse in batch:", lambda: torch.linalg.inv(torch.stack([torch.eye(2), A])))
print(isinstance(torch.linalg.LinAlgError("x"), RuntimeError))
torch.inverse(torch.zeros(3, 3))
