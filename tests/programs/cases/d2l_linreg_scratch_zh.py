# 从零实现线性回归（自己的例子）：由房间面积、楼层、房龄估计房租。每一步随机抽一小批样本（可能与上一步重复），
# 手写前向、损失和梯度下降，每 20 步在全部数据上看一次损失。
import random
import torch

random.seed(3)
torch.manual_seed(5)

真实系数 = torch.tensor([2.5, 0.4, -1.1])        # 面积、楼层、房龄（都已标准化）
真实底价 = 6.0
特征 = torch.normal(0, 1, (90, 3))
房租 = (特征 @ 真实系数 + 真实底价 + torch.normal(0, 0.05, (90,))).reshape(-1, 1)
print("第一套房:", 特征[0], "房租:", 房租[0])

系数 = torch.normal(0, 0.01, size=(3, 1), requires_grad=True)
底价 = torch.zeros(1, requires_grad=True)


def 估计(X):
    return torch.matmul(X, 系数) + 底价


def 损失(估计值, 实际值):
    return (估计值 - 实际值) ** 2 / 2


def 抽一批(批大小):
    下标 = random.sample(range(len(特征)), 批大小)   # 不放回地抽，但每一步重新抽
    下标 = torch.tensor(下标)
    return 特征[下标], 房租[下标]


def 走一步(参数们, 步长, 批大小):
    with torch.no_grad():                        # 更新参数这件事本身不需要求导
        for p in 参数们:
            p.sub_(步长 * p.grad / 批大小)
            p.grad.zero_()                       # 梯度会累加，用完清零


for 步 in range(1, 81):
    Xb, yb = 抽一批(9)
    损失(估计(Xb), yb).sum().backward()
    走一步([系数, 底价], 0.1, 9)
    if 步 % 20 == 0:
        with torch.no_grad():
            print(f"第 {步} 步, 平均损失 {损失(估计(特征), 房租).mean().item():.6f}")
print("系数误差:", 真实系数 - 系数.reshape(-1))
print("底价误差:", 真实底价 - 底价)
print(系数.grad, 底价.requires_grad, 系数.is_leaf)
