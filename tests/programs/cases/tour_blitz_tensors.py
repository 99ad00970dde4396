# A first look at tensors, in the order an introduction to PyTorch usually goes: making them, their
# attributes, indexing, joining, arithmetic, and sharing memory with numpy.
import numpy as np
import torch

grid = [[5, 0, 2], [1, 7, 3]]
from_list = torch.tensor(grid)
from_numpy = torch.from_numpy(np.array(grid))
print(from_list, from_numpy, sep="\n")
print(f"same shape of ones:\n{torch.ones_like(from_list)}\n")
print(f"same shape of random floats:\n{torch.rand_like(from_list, dtype=torch.float)}\n")
size = (3, 2)
for factory in (torch.zeros, torch.ones, torch.rand, torch.randn):
    print(factory.__name__, factory(size))

m = torch.randn(2, 5)
print(f"shape {m.shape}, dtype {m.dtype}, device {m.device}")
where = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
m = m.to(where)
print("running on", where)

board = torch.arange(1., 13.).reshape(3, 4)
print(f"row 1: {board[1]}")
print(f"column 2: {board[:, 2]}")
print(f"last entries: {board[..., -1]}")
board[:, 0] = -1
print(board)
print(torch.cat([board, board], dim=0).shape, torch.cat((board, board), dim=1))

gram = board @ board.T
same = board.matmul(board.T)
into = torch.empty_like(gram)
torch.matmul(board, board.T, out=into)
print(gram, same.equal(into), sep="\n")
squares = board * board
into2 = torch.empty_like(board)
torch.mul(board, board, out=into2)
print(squares.equal(into2), squares.max())
total = board.sum()
as_number = total.item()
print(as_number, type(as_number))
board.mul_(0.5)
print(f"{board}\n")

shared = torch.zeros(4)
view = shared.numpy()
shared.add_(2)
print(f"tensor: {shared}", f"array: {view}", sep="\n")
arr = np.arange(4.0)
back = torch.from_numpy(arr)
np.multiply(arr, 10, out=arr)
print(f"tensor: {back}", f"array: {arr}", sep="\n")
print(torch.is_tensor(back), back.numel(), back.nelement(), back.ndim, back.size(0), back.element_size())
print(torch.full((2, 3), -1, dtype=torch.int16), torch.eye(2, dtype=torch.int32))
print(torch.linspace(-1, 1, steps=3), torch.arange(2, 11, 4), torch.cuda.is_available(),
      torch.backends.mps.is_available())
