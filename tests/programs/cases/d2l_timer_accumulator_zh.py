# 两个小工具（自己写的）：秒表和累加器，以及用它们记录的一个简单线性回归训练。
import time

import numpy as np
import torch
from torch import nn


class 秒表:
    """每次 停() 记下一段用时，可求总和、平均和累计。"""

    def __init__(self):
        self.记录 = []
        self.开始()

    def 开始(self):
        self.起点 = time.perf_counter()

    def 停(self):
        self.记录.append(time.perf_counter() - self.起点)
        return self.记录[-1]

    def 平均(self):
        return sum(self.记录) / len(self.记录)

    def 累计(self):
        return np.cumsum(self.记录).tolist()


class 累加器:
    """对几个量分别求和：加(损失, 样本数) 之后用 [下标] 取出。"""

    def __init__(self, 个数):
        self.和 = [0.0] * 个数

    def 加(self, *值):
        self.和 = [s + float(v) for s, v in zip(self.和, 值)]

    def 清零(self):
        self.和 = [0.0 for _ in self.和]

    def __getitem__(self, i):
        return self.和[i]


长度 = 500
甲, 乙 = torch.ones(长度), torch.full((长度,), 2.0)
逐个 = torch.zeros(长度)
表 = 秒表()
for i in range(长度):
    逐个[i] = 甲[i] + 乙[i]
用时1 = 表.停()
表.开始()
整体 = 甲 + 乙
用时2 = 表.停()
print('计时次数:', len(表.记录), 用时1 >= 0, 用时2 >= 0, len(表.累计()))
print(torch.equal(逐个, 整体), 逐个[:4], 整体.dtype)

# 用累加器记录每轮的平均损失
真权重 = torch.tensor([-1.2, 0.8])
真偏置 = 2.0
X = torch.normal(0, 1, (120, 2))
y = (X @ 真权重 + 真偏置 + torch.normal(0, 0.01, (120,))).reshape(-1, 1)
网络 = nn.Sequential(nn.Linear(2, 1))
网络[0].weight.data.normal_(0, 0.01)
网络[0].bias.data.fill_(0)
损失函数 = nn.MSELoss()
优化器 = torch.optim.SGD(网络.parameters(), lr=1 / 16)
统计 = 累加器(2)
for 轮 in range(3):
    统计.清零()
    for i in range(0, 120, 12):
        Xb, yb = X[i:i + 12], y[i:i + 12]
        损失 = 损失函数(网络(Xb), yb)
        优化器.zero_grad()
        损失.backward()
        优化器.step()
        统计.加(损失 * len(yb), len(yb))
    print(f'第 {轮 + 1} 轮, 平均损失 {统计[0] / 统计[1]:f}')
print('权重误差:', 真权重 - 网络[0].weight.data.reshape(-1))
print('偏置误差:', 真偏置 - 网络[0].bias.data)
