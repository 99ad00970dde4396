# 从零实现线性回归（按教材的思路自己写的版本）：造数据、打乱后分批、前向、损失、手写梯度下降。
import random
import torch

random.seed(0)
torch.manual_seed(5)

目标权重 = torch.tensor([1.5, -2.0, 0.7])
目标偏置 = -0.3


def 造数据(权重, 偏置, 样本数):
    """按 y = X·权重 + 偏置 生成样本，再加一点高斯噪声。"""
    X = torch.normal(0, 1, (样本数, len(权重)))
    y = X @ 权重 + 偏置 + torch.normal(0, 0.02, (样本数,))
    return X, y.reshape(-1, 1)


X全部, y全部 = 造数据(目标权重, 目标偏置, 150)
print("第一个样本:", X全部[0], "标签:", y全部[0])


def 分批(批大小, X, y):
    顺序 = list(range(len(X)))
    random.shuffle(顺序)
    for 起点 in range(0, len(X), 批大小):
        下标 = torch.tensor(顺序[起点:起点 + 批大小])
        yield X[下标], y[下标]


权重 = torch.normal(0, 0.01, size=(3, 1), requires_grad=True)
偏置 = torch.zeros(1, requires_grad=True)


def 模型(X):
    return torch.matmul(X, 权重) + 偏置


def 半平方误差(预测, 真值):
    return 0.5 * (预测 - 真值.reshape(预测.shape)) ** 2


def 梯度下降(参数们, 学习率, 批大小):
    with torch.no_grad():               # 更新参数时不要记录计算图
        for p in 参数们:
            p.sub_(学习率 * p.grad / 批大小)
            p.grad.zero_()


for 轮 in range(4):
    for Xb, yb in 分批(15, X全部, y全部):
        半平方误差(模型(Xb), yb).sum().backward()
        梯度下降([权重, 偏置], 0.05, 15)
    with torch.no_grad():
        print(f"第 {轮 + 1} 轮, 平均损失 {半平方误差(模型(X全部), y全部).mean().item():.6f}")
print("权重误差:", 目标权重 - 权重.reshape(-1))
print("偏置误差:", 目标偏置 - 偏置)
print(权重.grad, 偏置.requires_grad, 权重.is_leaf)
