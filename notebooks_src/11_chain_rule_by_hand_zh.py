# title: 手算链式法则 (中文)
# summary: A Chinese notebook: the autograd tutorial's gradient worked out on paper, factor by factor, and checked against backward: the formulas in the drawing, the chain-rule line of each player step, vᵀJ for a vector output, a Jacobian, and a quiz where you predict each gradient.
# language: zh

# %% [markdown]
"""
# 手算链式法则

只要一行 `out.backward()`，`x.grad` 就有了值。这个笔记本先用纸笔求导的办法自己算出同样的数，再验证
backward 做的正是这件事：它从输出出发、一路退回叶子张量，每经过一个运算就乘上一个小小的局部导数。
这就是**链式法则**（chain rule）。
"""

# %% tags=["nbval-check-output"]
import gradlab as torch
from gradlab import viz

# %% [markdown]
"""
## 例子

autograd 教程从一个全是 1 的 2×2 张量出发，构造了下面这个计算图：
"""

# %% tags=["nbval-check-output"]
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
print(out)

# %% [markdown]
"""
对其中一个元素 $x_i$ 写出来（一共四个元素，都等于 1）：

$$o = \frac{1}{4}\sum_{i} z_i, \qquad z_i = 3\,y_i^2, \qquad y_i = x_i + 2,
\qquad\text{所以}\qquad z_i = 3\,(x_i + 2)^2 .$$

想知道 $x_i$ 变化时 $o$ 怎样变化，链式法则告诉我们：把每一步对下一步的影响乘起来。

$$\frac{\partial o}{\partial x_i}
= \frac{\partial o}{\partial z_i}\cdot\frac{\partial z_i}{\partial y_i}\cdot\frac{\partial y_i}{\partial x_i}
= \frac{1}{4}\cdot 6\,y_i\cdot 1 = \frac{3}{2}\,(x_i + 2) = \frac{3}{2}\cdot 3 = 4.5 .$$
"""

# %% [markdown]
"""
## 用代码算出每个局部导数

每行一个因子。`y.detach()` 只取出 `y` 的值，不记录任何运算：这里用的是普通的数，和计算图无关。
"""

# %% tags=["nbval-check-output"]
do_dz = torch.ones(2, 2) / 4      # o 是 4 个数的平均：每个数占 1/4
dz_dy = 6 * y.detach()            # z = 3 y²，所以 dz/dy = 6 y = 18
dy_dx = torch.ones(2, 2)          # y = x + 2，所以 dy/dx = 1
print(do_dz)
print(dz_dy)
print(dy_dx)

# %% [markdown]
"""
三个因子相乘就是梯度，也和上面的公式 $\frac{3}{2}(x_i + 2)$ 一致。接着让 backward 来算，再比较：
只有每个元素都相同时，`torch.equal` 才返回 `True`。
"""

# %% tags=["nbval-check-output"]
by_hand = do_dz * dz_dy * dy_dx
print(by_hand)
print(3 / 2 * (x.detach() + 2))

# %% tags=["nbval-check-output"]
out.backward()
print(x.grad)
print(torch.equal(x.grad, by_hand))

# %% [markdown]
"""
## 图里的求导公式

每个 `grad_fn` 节点只知道它自己那个运算的导数。加上 `formulas=True`，图中会为每个输入列出这条公式：
`grad` 是从上游传来的梯度，`grad_self` / `grad_other` 是节点传给第一个 / 第二个输入的梯度。
上面的 backward 已经用掉了计算图，所以重新构造一次。
"""

# %%
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
viz.set_language("zh")   # 图、播放器和测验的说明使用中文
viz.draw(out, names=locals(), formulas=True)

# %% [markdown]
"""
计算图把我们中间的那个因子拆成了两步。`y * y * 3` 其实是 `(y * y) * 3`：一个 `MulBackward0` 乘以常数 3；
另一个（`y * y`）给一个输入传 `grad * other`，给另一个输入传 `grad * self`。两个输入都是 `y`，所以 `y`
收到的是两者之**和**：`grad · y + grad · y = 2y · grad`。合起来是 $3 \cdot 2y = 6y$，正是我们手算的那个因子。
"""

# %% [markdown]
"""
## 看着因子一个个相乘

逐步播放反向传播。每段说明下面以 **链式法则：** 开头的那一行，就是该节点的公式代入这一步的数：先是 `0.25`，
然后 `0.25 * 3 = 0.75`，再把 `0.75 * 3 = 2.25` 两次传给 `y`（加起来是 4.5），最后把 `grad = 4.5` 传给 `x`。
"""

# %%
viz.animate_backward(out, names=locals())

# %% [markdown]
"""
同样的内容也可以用文字查看：`viz.record_backward` 像播放器一样真正执行一次 backward，并返回每一步（帧）。
`frame.rule` 是这一步的链式法则那一行；起点和 `AccumulateGrad`（它只把收到的值存起来）那一步是空的。
在新的计算图上再做一次：
"""

# %% tags=["nbval-check-output"]
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
frames = viz.record_backward(out, names=locals())
for frame in frames:
    if frame.rule:
        print(frame.node.title.ljust(14), frame.rule.strip())
print(x.grad)

# %% [markdown]
"""
## 输出是向量时：vᵀJ

教程的第二个例子把一个随机向量不断乘以 2，直到它的范数超过 1000。先调用 `manual_seed(0)`，
每次运行得到的数就都一样（和 PyTorch 用种子 0 抽到的数相同）。
"""

# %% tags=["nbval-check-output"]
torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
y = x * 2
while y.data.norm() < 1000:
    y = y * 2
print(y)

# %% [markdown]
"""
`y` 有三个元素，所以"`y` 的导数"不是一个数，而是九个 $\partial y_i/\partial x_j$，也就是雅可比矩阵 $J$。
`y.backward(v)` 并不构造 $J$：它用向量 `v` 代替 1 作为链式法则的起点，最后得到乘积 $v^\top J$。
`viz.vjp` 把这三部分并排显示出来：
"""

# %% tags=["nbval-check-output"]
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
viz.vjp(y, x, v)

# %% tags=["nbval-check-output"]
y.backward(v)
print(x.grad)

# %% [markdown]
"""
手算一下：每个 $y_i$ 都是 $x_i$ 连乘九次 2，即 $y_i = 512\,x_i$。所以 $\partial y_i/\partial x_i = 512$，
而 $j \ne i$ 时 $\partial y_i/\partial x_j = 0$（$y_i$ 根本没用到 $x_j$）。把这个 $J$ 写出来再相乘：
"""

# %% tags=["nbval-check-output"]
scale = y.data[0] / x.data[0]     # y 放大的倍数：2 ** 9
J = torch.eye(3) * scale
print(J)
print(v @ J)
print(torch.equal(x.grad, v @ J))

# %% [markdown]
"""
## 函数的雅可比矩阵

`viz.jacobian(f, x)` 可以求任意函数的 $J$，并给行（输出）和列（输入）标上名字。对逐元素平方
$y = t \cdot t$，输出 $y_i = t_i^2$ 只依赖 $t_i$：对角线以外全是 0，对角线上是 $2\,t_i = 2, 4, 6$。
"""

# %% tags=["nbval-check-output"]
viz.jacobian(lambda t: t * t, torch.tensor([1., 2., 3.]))

# %% [markdown]
"""
如果把元素混在一起，0 就没有了：在 $y = t \cdot \sum_j t_j$ 中，每个输出都用到了每个输入。
"""

# %% tags=["nbval-check-output"]
viz.jacobian(lambda t: t * t.sum(), torch.tensor([1., 2., 3.]))

# %% [markdown]
"""
## 动手试试：先预测梯度

再用一次教程的计算图，这次是测验。每一步先用链式法则算出节点要传出的梯度，输入它（可以是 `0.25` 这样的一个数，
也可以是整个张量），然后点击**检查**：测验会告诉你对不对，并给出公式。检查答案需要正在运行的内核，所以请先运行
这个单元（从文件打开的笔记本在此之前只显示计算图）。
"""

# %%
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
viz.animate_backward(out, names=locals(), quiz=True)
