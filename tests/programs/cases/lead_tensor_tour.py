# Tensors in a few lines each, on a made-up table of readings (4 days x 2 sensors): making them, their
# sizes, adding them three ways, slicing, reshaping, one-number tensors, and memory shared with NumPy.
import numpy as np
import torch

blank = torch.empty(4, 2).zero_()            # empty() keeps whatever was in memory; zero_() clears it
print(blank)
readings = torch.rand(4, 2)
print(readings)
counts = torch.zeros(4, 2, dtype=torch.long)
print(counts)
offsets = torch.tensor([0.25, -1])
print(offsets)
grid = offsets.new_ones(3, 4, dtype=torch.double)    # new_* makes a tensor like `offsets`, here in float64
print(grid)
jitter = torch.randn_like(grid, dtype=torch.float)   # the shape of `grid`, as float32
print(jitter)
print(grid.size(), grid.size()[1], len(jitter.size()))

second = torch.rand(4, 2)
print(readings + second)
print(torch.add(readings, second))
total = torch.empty(4, 2)
torch.add(readings, second, out=total)
print(total)
second.add_(readings)                        # a trailing underscore changes `second` itself
print(second)
print(readings[:, 0])                        # the first sensor, every day

week = torch.randn(2, 6)
flat = week.view(12)
three_rows = week.view(3, -1)
print(week.size(), flat.size(), three_rows.size())
one = torch.randn(1)
print(one)
print(one.item())

ones = torch.ones(3)
as_array = ones.numpy()                      # the array and the tensor share memory
print(as_array)
ones.mul_(4)
print(ones)
print(as_array)
arr = np.full(3, 2.0)
from_arr = torch.from_numpy(arr)             # and the other way round
np.multiply(arr, 5, out=arr)
print(arr)
print(from_arr)
print(torch.cuda.is_available())
