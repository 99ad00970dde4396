# Pooling layers on small inputs, printed: max and average pooling, padding and stride, several
# channels, adaptive pooling, the indices a max pool returns, and a shape mistake.
import torch
from torch import nn
import torch.nn.functional as F

grid = torch.tensor([[3.0, 1.0, 4.0, 1.0, 5.0],
                     [9.0, 2.0, 6.0, 5.0, 3.0],
                     [5.0, 8.0, 9.0, 7.0, 9.0],
                     [3.0, 2.0, 3.0, 8.0, 4.0]]).reshape((1, 1, 4, 5))
print(grid)
window = nn.MaxPool2d(2)                 # stride defaults to the window: 2x2 tiles, the odd column is left out
print(window, window(grid))
window = nn.MaxPool2d(3, padding=1, stride=2)
print(window(grid))
window = nn.MaxPool2d((3, 2), stride=(1, 2), padding=(1, 0))
print(window(grid))
print(nn.AvgPool2d(2)(grid))
print(F.avg_pool2d(grid, 3, stride=2, padding=1))
print(F.avg_pool2d(grid, 3, stride=2, padding=1, count_include_pad=False))
print(F.max_pool2d(grid, 2, stride=2, ceil_mode=True))

# each channel is pooled on its own
X = torch.cat((grid, -grid, grid / 2), 1)
print(X.shape)
print(nn.MaxPool2d(3, padding=1, stride=2)(X))

out, idx = nn.MaxPool2d(2, return_indices=True)(X)
print(out)
print(idx)

# adaptive pooling picks the window size for the output size asked for
torch.manual_seed(0)
x = torch.randn(2, 3, 7, 5, requires_grad=True)
gap = nn.AdaptiveAvgPool2d((1, 1))
print(gap)
y = gap(x)
print(y.shape, y.grad_fn.name())
print(y.flatten(1))
z = nn.AdaptiveAvgPool2d((3, 2))(x)
print(z.shape)
print(z[0, 0])
print(nn.AdaptiveMaxPool2d(2)(x)[1, 2])
(z.sum() + y.sum()).backward()
print(x.grad[0, 0])

# 1-d pools over a sequence
seq = torch.tensor([[[1.0, 5.0, 2.0, 8.0, 3.0, 3.0, 9.0]]])
print(nn.MaxPool1d(2)(seq), nn.MaxPool1d(3, stride=1)(seq))
print(nn.AvgPool1d(2, stride=2)(seq), F.avg_pool1d(seq, 3, padding=1))
print(nn.AdaptiveAvgPool1d(3)(seq))

# max pooling passes the gradient only to the maxima
x = torch.tensor([[[[1.0, 2.0, 5.0, 0.0], [3.0, 4.0, 1.0, 7.0], [0.0, 2.0, 9.0, 1.0], [6.0, 1.0, 1.0, 2.0]]]],
                 requires_grad=True)
y = F.max_pool2d(x, 2)
y.sum().backward()
print(y, x.grad, sep="\n")

# a flat vector is not an image
print(nn.MaxPool2d(2)(torch.arange(8.0)))
