# Convolutions from scratch, on our own small examples: a cross-correlation written by hand and checked
# against F.conv2d, a kernel that finds where a picture changes from top to bottom, a kernel learned back by
# gradient descent, output shapes under padding and stride, several channels, and a 1x1 convolution.
import torch
from torch import nn
import torch.nn.functional as F


def slide(image, kernel):
    """Cross-correlation: lay the kernel on each position, multiply and add up."""
    kh, kw = kernel.shape
    out = torch.zeros((image.shape[0] - kh + 1, image.shape[1] - kw + 1))
    for r in range(out.shape[0]):
        for c in range(out.shape[1]):
            out[r, c] = (image[r:r + kh, c:c + kw] * kernel).sum()
    return out


img = torch.tensor([[1.0, 0.0, 2.0, 1.0], [0.0, 3.0, 1.0, 2.0], [2.0, 1.0, 0.0, 4.0]])
ker = torch.tensor([[1.0, -1.0], [0.5, 2.0]])
print(slide(img, ker))
print(F.conv2d(img.reshape(1, 1, 3, 4), ker.reshape(1, 1, 2, 2)))

# a picture whose middle rows are bright; the kernel [[1], [-1]] marks where brightness changes downwards
pic = torch.zeros((7, 5))
pic[2:5, :] = 1
print(pic)
edge = torch.tensor([[1.0], [-1.0]])
found = slide(pic, edge)
print(found)
print(slide(pic.t(), edge))                  # turned sideways the change runs across, not down: nothing found

# learn that kernel back from the picture and what it found
torch.manual_seed(2)
learner = nn.Conv2d(1, 1, kernel_size=(2, 1), bias=False)
print(learner)
print(learner.weight)
pic4 = pic.reshape((1, 1, 7, 5))
found4 = found.reshape((1, 1, 6, 5))
lr = 0.02
for i in range(1, 13):
    guess = learner(pic4)
    sq = (guess - found4) ** 2
    learner.zero_grad()
    sq.sum().backward()
    learner.weight.data[:] -= lr * learner.weight.grad
    if i % 3 == 0:
        print(f'round {i}, loss {sq.sum():.3f}')
print(learner.weight.data.reshape((2, 1)))


# how padding and stride change the output's size
def out_shape(conv, image):
    batch = image.reshape((1, 1) + image.shape)
    return conv(batch).shape[2:]


square = torch.rand(size=(10, 10))
print(out_shape(nn.Conv2d(1, 1, kernel_size=5, padding=2), square))
print(out_shape(nn.Conv2d(1, 1, kernel_size=(3, 5), padding=(1, 2)), square))
print(out_shape(nn.Conv2d(1, 1, kernel_size=3, padding=1, stride=3), square))
print(out_shape(nn.Conv2d(1, 1, kernel_size=(2, 4), padding=(1, 0), stride=(2, 3)), square))
print(out_shape(nn.Conv2d(1, 1, kernel_size=3, padding='same'), square))


# several input channels are added up; several output channels are stacked
def slide_channels(image, kernel):
    return sum(slide(plane, k) for plane, k in zip(image, kernel))


def slide_many(image, kernels):
    return torch.stack([slide_channels(image, k) for k in kernels], 0)


two = torch.tensor([[[1.0, 2.0, 0.0], [0.0, 1.0, 3.0], [2.0, 2.0, 1.0]],
                    [[0.0, 1.0, 1.0], [4.0, 0.0, 2.0], [1.0, 3.0, 0.0]]])
kk = torch.tensor([[[1.0, 0.0], [0.0, -1.0]], [[2.0, 1.0], [1.0, 0.0]]])
print(slide_channels(two, kk))
kk = torch.stack((kk, 2 * kk, kk - 1), 0)
print(kk.shape)
print(slide_many(two, kk))
print(F.conv2d(two, kk))                     # an unbatched (C, H, W) input is fine too

# a 1x1 convolution mixes the channels at each pixel, like a linear layer would
pix = torch.normal(0, 1, (4, 2, 3))
mix = torch.normal(0, 1, (3, 4, 1, 1))
by_conv = F.conv2d(pix.unsqueeze(0), mix).squeeze(0)
by_matmul = torch.matmul(mix.reshape(3, 4), pix.reshape(4, 6)).reshape(3, 2, 3)
print(float(torch.abs(by_conv - by_matmul).sum()) < 1e-5)
