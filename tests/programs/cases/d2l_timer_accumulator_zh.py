# 计时器和累加器：教科书里常见的两个小工具类，以及用它们记录的一个小训练循环。
import time

import numpy as np
import torch
from torch import nn


class Timer:
    """记录多次运行时间"""

    def __init__(self):
        self.times = []
        self.start()

    def start(self):
        self.tik = time.time()

    def stop(self):
        self.times.append(time.time() - self.tik)
        return self.times[-1]

    def avg(self):
        return sum(self.times) / len(self.times)

    def sum(self):
        return sum(self.times)

    def cumsum(self):
        return np.array(self.times).cumsum().tolist()


class Accumulator:
    """在n个变量上累加"""

    def __init__(self, n):
        self.data = [0.0] * n

    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]

    def reset(self):
        self.data = [0.0] * len(self.data)

    def __getitem__(self, idx):
        return self.data[idx]


n = 1000
a = torch.ones([n])
b = torch.ones([n])
c = torch.zeros(n)
timer = Timer()
for i in range(n):
    c[i] = a[i] + b[i]
t1 = timer.stop()
timer.start()
d = a + b
t2 = timer.stop()
print('两次计时:', len(timer.times), t1 >= 0, t2 >= 0)
print(torch.equal(c, d), c[:5], d.dtype)

# 用累加器记录损失和样本数
true_w = torch.tensor([2, -3.4])
true_b = 4.2
X = torch.normal(0, 1, (100, 2))
y = torch.matmul(X, true_w) + true_b
y += torch.normal(0, 0.01, y.shape)
y = y.reshape((-1, 1))
net = nn.Sequential(nn.Linear(2, 1))
net[0].weight.data.normal_(0, 0.01)
net[0].bias.data.fill_(0)
loss = nn.MSELoss()
trainer = torch.optim.SGD(net.parameters(), lr=0.03)
metric = Accumulator(2)
for epoch in range(3):
    metric.reset()
    for i in range(0, 100, 10):
        Xb, yb = X[i:i + 10], y[i:i + 10]
        l = loss(net(Xb), yb)
        trainer.zero_grad()
        l.backward()
        trainer.step()
        metric.add(l * len(yb), len(yb))
    print(f'第 {epoch + 1} 轮, 平均损失 {metric[0] / metric[1]:f}')
w = net[0].weight.data
print('w的估计误差：', true_w - w.reshape(true_w.shape))
b = net[0].bias.data
print('b的估计误差：', true_b - b)
