# A LeNet-shaped network for 28x28 digit pictures (the first convolution pads by 2), written as a class with
# a ModuleList: print it and its parameters, push two pictures through, walk the loss's graph by name, take
# one SGD step by hand and three with torch.optim.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class DigitNet(nn.Module):
    """6 maps of 5x5 kernels (padded to keep 28x28), pool to 14, 16 maps of 5x5 (10x10), pool to 5:
    16 * 5 * 5 = 400 numbers, then 400 -> 120 -> 84 -> 10."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(in_channels=1, out_channels=6, kernel_size=5, padding=2)
        self.conv2 = nn.Conv2d(in_channels=6, out_channels=16, kernel_size=5)
        self.middle = nn.ModuleList([nn.Linear(400, 120), nn.Linear(120, 84)])
        self.last = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
        x = F.max_pool2d(F.relu(self.conv2(x)), kernel_size=2)    # a square window as a pair or a number
        x = x.view(x.size(0), -1)
        for layer in self.middle:
            x = F.relu(layer(x))
        return self.last(x)


net = DigitNet()
print(net)
params = list(net.parameters())
print(len(params), sum(p.numel() for p in params))
print(params[2].size())          # conv2's weight
print(params[1])                 # conv1's bias

digits = torch.randn(2, 1, 28, 28)
out = net(digits)
print(out)
print(out.shape, type(out.grad_fn).__name__)
net.zero_grad()
out.backward(torch.ones(2, 10) / 20)       # the gradient of the mean of all twenty outputs
print(net.middle[1].bias.grad)

target = torch.zeros(2, 10)
target[0, 3] = target[1, 7] = 1.0          # "a 3 and a 7", one-hot
criterion = nn.MSELoss()
loss = criterion(net(digits), target)
print(loss)

# walk back through the graph by names (the printed objects would carry their addresses)
node = loss.grad_fn
while node is not None:
    print(node.name())
    node = next((n for n, _ in node.next_functions if n is not None and n.name() != "torch::autograd::AccumulateGrad"), None)

net.zero_grad()
print("last layer's bias gradient, cleared:", net.last.bias.grad)
loss.backward()
print("after backward:", net.last.bias.grad)

# one plain SGD step written by hand, then three with torch.optim
step_size = 0.05
with torch.no_grad():
    for p in net.parameters():
        p.sub_(p.grad * step_size)
print(criterion(net(digits), target))

optimizer = torch.optim.SGD(net.parameters(), lr=0.05)
for step in range(3):
    optimizer.zero_grad()
    loss = criterion(net(digits), target)
    loss.backward()
    optimizer.step()
    print(step, round(loss.item(), 4))
print(net.conv1.weight.grad.shape, net.conv1.weight.grad.abs().sum())
