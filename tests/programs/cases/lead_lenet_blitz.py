# A small convolutional network, defined, inspected, run forward and backward, and stepped once.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(1)


class Net(nn.Module):
    """Two convolutions, each followed by ReLU and 2x2 max pooling, then a classifier of three linear
    layers (LeNet's sizes: 16 maps of 5x5 make 400 features)."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, kernel_size=5)
        self.conv2 = nn.Conv2d(6, 16, kernel_size=5)
        self.classifier = nn.Sequential(nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(),
                                        nn.Linear(84, 10))

    def forward(self, x):
        for conv in (self.conv1, self.conv2):
            x = F.max_pool2d(conv(x).relu(), 2)
        return self.classifier(x.flatten(1))


net = Net()
print(net)
params = list(net.parameters())
print(len(params))
print(params[0].size())
inp = torch.randn(1, 1, 32, 32)
out = net(inp)
print(out)
net.zero_grad()
out.backward(torch.randn(1, 10))
output = net(inp)
target = torch.randn(10).view(1, -1)
criterion = nn.MSELoss()
loss = criterion(output, target)
print(loss)
print(loss.grad_fn)
print(loss.grad_fn.next_functions[0][0])
print(loss.grad_fn.next_functions[0][0].next_functions[0][0])
net.zero_grad()
print(net.conv1.bias.grad)
loss.backward()
print(net.conv1.bias.grad)
optimizer = optim.SGD(net.parameters(), lr=0.01)
optimizer.zero_grad()
output = net(inp)
loss = criterion(output, target)
loss.backward()
optimizer.step()
print(net(inp))
