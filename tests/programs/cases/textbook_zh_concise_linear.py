# 线性回归的简洁实现：用 torch.utils.data 读取数据，nn.init 初始化，优化器的 param_groups 调整学习率。
import torch
import torch.utils.data as Data
from torch import nn
from torch.nn import init
from collections import OrderedDict

num_inputs = 2
num_examples = 200
true_w = [2, -3.4]
true_b = 4.2
features = torch.tensor(torch.randn(num_examples, num_inputs), dtype=torch.float)
labels = true_w[0] * features[:, 0] + true_w[1] * features[:, 1] + true_b
labels += torch.tensor(torch.normal(0, 0.01, size=labels.size()), dtype=torch.float)

batch_size = 10
dataset = Data.TensorDataset(features, labels)
data_iter = Data.DataLoader(dataset, batch_size, shuffle=True)
for X, y in data_iter:
    print(X, y)
    break


class LinearNet(nn.Module):
    def __init__(self, n_feature):
        super(LinearNet, self).__init__()
        self.linear = nn.Linear(n_feature, 1)

    def forward(self, x):
        y = self.linear(x)
        return y


net = LinearNet(num_inputs)
print(net)
net = nn.Sequential(OrderedDict([('linear', nn.Linear(num_inputs, 1))]))
print(net)
print(net[0])
for param in net.parameters():
    print(param)
init.normal_(net[0].weight, mean=0, std=0.01)
init.constant_(net[0].bias, val=0)
loss = nn.MSELoss()
optimizer = torch.optim.SGD(net.parameters(), lr=0.03)
print(optimizer)
for param_group in optimizer.param_groups:
    param_group['lr'] *= 0.1
print(optimizer.param_groups[0]['lr'])
for param_group in optimizer.param_groups:
    param_group['lr'] = 0.03
num_epochs = 3
for epoch in range(1, num_epochs + 1):
    for X, y in data_iter:
        output = net(X)
        l = loss(output, y.view(-1, 1))
        optimizer.zero_grad()
        l.backward()
        optimizer.step()
    print('epoch %d, loss: %f' % (epoch, l.item()))
dense = net[0]
print(true_w, dense.weight)
print(true_b, dense.bias)
print('权重', dense.weight.data, '偏差', dense.bias.data.item())
