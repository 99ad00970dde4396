# 线性回归的简洁实现（自己的例子）：用两项读数预测一个月的电费，torch.utils.data 读数据，nn.init 初始化，
# 再通过优化器的 param_groups 调整学习率。
import torch
import torch.utils.data as Data
from torch import nn
from torch.nn import init
from collections import OrderedDict

n_readings = 3                                   # 平均气温、在家人数、电器数量（都已标准化）
n_months = 150
rates = [1.2, 0.8, -0.5]
fixed_fee = 2.0
readings = torch.tensor(torch.randn(n_months, n_readings), dtype=torch.float)   # torch.tensor(张量) 会给出警告
bills = rates[0] * readings[:, 0] + rates[1] * readings[:, 1] + rates[2] * readings[:, 2] + fixed_fee
bills += torch.tensor(torch.normal(0, 0.02, size=bills.size()), dtype=torch.float)

batch = 15
months = Data.TensorDataset(readings, bills)
month_iter = Data.DataLoader(months, batch, shuffle=True)
for X, y in month_iter:
    print(X[:3], y[:3])
    break


class BillModel(nn.Module):
    def __init__(self, n_in):
        super(BillModel, self).__init__()
        self.fit = nn.Linear(n_in, 1)

    def forward(self, x):
        return self.fit(x)


model = BillModel(n_readings)
print(model)
model = nn.Sequential(OrderedDict([('fit', nn.Linear(n_readings, 1))]))
print(model)
print(model[0])
for param in model.parameters():
    print(param)
init.normal_(model[0].weight, mean=0, std=0.02)
init.constant_(model[0].bias, val=0.5)
loss = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
print(optimizer)
for group in optimizer.param_groups:             # 先把学习率调小到一半看看
    group['lr'] *= 0.5
print(optimizer.param_groups[0]['lr'])
for group in optimizer.param_groups:
    group['lr'] = 0.05
for epoch in range(1, 5):
    for X, y in month_iter:
        l = loss(model(X), y.view(-1, 1))
        optimizer.zero_grad()
        l.backward()
        optimizer.step()
    print('第 %d 轮, 最后一批的损失: %f' % (epoch, l.item()))
layer = model[0]
print(rates, layer.weight)
print(fixed_fee, layer.bias)
print('费率', layer.weight.data, '固定费', layer.bias.data.item())
