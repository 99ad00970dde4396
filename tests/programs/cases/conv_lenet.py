# A small LeNet, defined as a class the way the beginner tutorials define networks:
# print the net, its parameters, push one image through it, compute a loss, look at the graph and a gradient.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class LeNet(nn.Module):
    """LeNet's sizes, written as a feature extractor and a classifier: 6 and 16 maps of 5x5 kernels with
    2x2 pooling, then 400 -> 120 -> 84 -> 10."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(in_channels=1, out_channels=6, kernel_size=5)
        self.conv2 = nn.Conv2d(in_channels=6, out_channels=16, kernel_size=5)
        self.hidden = nn.ModuleList([nn.Linear(400, 120), nn.Linear(120, 84)])
        self.out = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(self.conv1(x).relu(), kernel_size=2)
        x = F.max_pool2d(self.conv2(x).relu(), (2, 2))       # a square window as a number or a pair
        x = x.view(x.size(0), -1)
        for layer in self.hidden:
            x = F.relu(layer(x))
        return self.out(x)


net = LeNet()
print(net)

params = list(net.parameters())
print(len(params))
print(params[0].size())          # conv1's weight
print(params[1])                 # conv1's bias

image = torch.randn(1, 1, 32, 32)
out = net(image)
print(out)
print(out.shape, type(out.grad_fn).__name__)

net.zero_grad()
out.backward(torch.randn(1, 10))
print(net.conv1.weight.grad[0, 0])

target = torch.randn(10).view(1, -1)
criterion = nn.MSELoss()
output = net(image)
loss = criterion(output, target)
print(loss)

# walk back through the graph (names only: the printed objects carry their addresses)
node = loss.grad_fn
while node is not None:
    print(node.name())
    node = next((n for n, _ in node.next_functions if n is not None and n.name() != "torch::autograd::AccumulateGrad"), None)

net.zero_grad()
print("conv1.bias.grad before backward")
print(net.conv1.bias.grad)
loss.backward()
print("conv1.bias.grad after backward")
print(net.conv1.bias.grad)

# a plain SGD step by hand, then with torch.optim
learning_rate = 0.01
with torch.no_grad():
    for f in net.parameters():
        f.sub_(f.grad * learning_rate)
print(criterion(net(image), target))

optimizer = torch.optim.SGD(net.parameters(), lr=0.01)
for step in range(3):
    optimizer.zero_grad()
    loss = criterion(net(image), target)
    loss.backward()
    optimizer.step()
    print(step, round(loss.item(), 4))
print(net.conv2.weight.grad.shape, net.conv2.weight.grad.abs().sum())
