# Convolutions from scratch, in the style of a deep-learning textbook: a cross-correlation written by hand,
# compared with nn.Conv2d, an edge detector, and a kernel learned from data by gradient descent.
import torch
from torch import nn
import torch.nn.functional as F


def corr2d(X, K):
    """2-d cross-correlation, one output element at a time."""
    h, w = K.shape
    Y = torch.zeros((X.shape[0] - h + 1, X.shape[1] - w + 1))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            Y[i, j] = (X[i:i + h, j:j + w] * K).sum()
    return Y


X = torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]])
K = torch.tensor([[0.0, 1.0], [2.0, 3.0]])
print(corr2d(X, K))
print(F.conv2d(X.reshape(1, 1, 3, 3), K.reshape(1, 1, 2, 2)))

# an image with a black stripe, and a kernel that finds vertical edges
X = torch.ones((6, 8))
X[:, 2:6] = 0
print(X)
K = torch.tensor([[1.0, -1.0]])
Y = corr2d(X, K)
print(Y)
print(corr2d(X.t(), K))

# learn the kernel back from X and Y
torch.manual_seed(0)
conv2d = nn.Conv2d(1, 1, kernel_size=(1, 2), bias=False)
print(conv2d)
print(conv2d.weight)
X = X.reshape((1, 1, 6, 8))
Y = Y.reshape((1, 1, 6, 7))
lr = 3e-2
for i in range(10):
    Y_hat = conv2d(X)
    l = (Y_hat - Y) ** 2
    conv2d.zero_grad()
    l.sum().backward()
    conv2d.weight.data[:] -= lr * conv2d.weight.grad
    if (i + 1) % 2 == 0:
        print(f'epoch {i + 1}, loss {l.sum():.3f}')
print(conv2d.weight.data.reshape((1, 2)))


# padding and stride: output shapes
def comp_conv2d(conv2d, X):
    X = X.reshape((1, 1) + X.shape)
    Y = conv2d(X)
    return Y.reshape(Y.shape[2:])


X = torch.rand(size=(8, 8))
print(comp_conv2d(nn.Conv2d(1, 1, kernel_size=3, padding=1), X).shape)
print(comp_conv2d(nn.Conv2d(1, 1, kernel_size=(5, 3), padding=(2, 1)), X).shape)
print(comp_conv2d(nn.Conv2d(1, 1, kernel_size=3, padding=1, stride=2), X).shape)
print(comp_conv2d(nn.Conv2d(1, 1, kernel_size=(3, 5), padding=(0, 1), stride=(3, 4)), X).shape)
print(comp_conv2d(nn.Conv2d(1, 1, kernel_size=4, padding='same'), X).shape)


# several input and output channels
def corr2d_multi_in(X, K):
    return sum(corr2d(x, k) for x, k in zip(X, K))


def corr2d_multi_in_out(X, K):
    return torch.stack([corr2d_multi_in(X, k) for k in K], 0)


X = torch.tensor([[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]],
                  [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]])
K = torch.tensor([[[0.0, 1.0], [2.0, 3.0]], [[1.0, 2.0], [3.0, 4.0]]])
print(corr2d_multi_in(X, K))
K = torch.stack((K, K + 1, K + 2), 0)
print(K.shape)
print(corr2d_multi_in_out(X, K))
print(F.conv2d(X, K))          # an unbatched (C, H, W) input is fine too

# a 1x1 convolution is a fully connected layer over the channels
X = torch.normal(0, 1, (3, 3, 3))
K = torch.normal(0, 1, (2, 3, 1, 1))
Y1 = F.conv2d(X.unsqueeze(0), K).squeeze(0)
Y2 = torch.matmul(K.reshape(2, 3), X.reshape(3, 9)).reshape(2, 3, 3)
print(float(torch.abs(Y1 - Y2).sum()) < 1e-5)
