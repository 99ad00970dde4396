# Conv1d over sequences, padding modes, 'same' convolutions and the unbatched form.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
conv = nn.Conv1d(in_channels=2, out_channels=3, kernel_size=3)
print(conv)
print(conv.weight.shape, conv.bias.shape)
x = torch.randn(4, 2, 10)          # (batch, channels, length)
y = conv(x)
print(y.shape)
print(y[0])

same = nn.Conv1d(2, 2, kernel_size=5, padding='same', bias=False)
print(same, same(x).shape)
strided = nn.Conv1d(2, 2, kernel_size=3, stride=2, padding=1, dilation=2)
print(strided, strided(x).shape)
grouped = nn.Conv1d(2, 4, kernel_size=1, groups=2)
print(grouped, grouped(x).shape)
print(conv(x[0]).shape)            # one unbatched sequence (channels, length)

# padding: by value, by reflection, by repeating the edge
t = torch.arange(1.0, 5.0).reshape(1, 1, 4)
print(F.pad(t, (2, 1)))
print(F.pad(t, (2, 1), value=-1.0))
print(F.pad(t, (2, 1), mode='reflect'))
print(F.pad(t, (2, 1), mode='replicate'))
img = torch.arange(9.0).reshape(1, 1, 3, 3)
print(F.pad(img, (1, 1, 1, 1), mode='reflect'))
print(F.pad(img, (0, 1, 2, 0), mode='replicate'))
print(F.pad(img, (-1, 0, 0, -1)))

c = nn.Conv2d(1, 1, 3, padding=1, padding_mode='reflect', bias=False)
print(c)
with torch.no_grad():
    c.weight.fill_(1.0)
print(c(img))

# a gradient through padding and convolution
x = torch.randn(1, 1, 5, requires_grad=True)
w = torch.randn(1, 1, 3, requires_grad=True)
y = F.conv1d(F.pad(x, (1, 1), mode='reflect'), w)
y.pow(2).sum().backward()
print(y.grad_fn.name(), y.grad_fn.next_functions[0][0].name())
print(x.grad)
print(w.grad)

# a kernel longer than the padded sequence
short = torch.randn(1, 2, 2)
print(conv(short))
