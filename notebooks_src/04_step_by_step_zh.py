# title: 一步一个单元 (中文)
# summary: A Chinese autograd tutorial written as many one-line cells that show each value: tensors, grad_fn, requires_grad_, backward with a vector, no_grad; then the graph drawn and backward played.
# seed: 003_7098374ce7fe07be.txt
# language: zh

# %% [markdown]
"""
# 一步一个单元：PyTorch autograd 自动求导

这个笔记本跟随一篇中文的 autograd 教程。那篇教程几乎每个单元只写一行代码，并直接显示结果，
很适合一边运行一边观察。代码中唯一的改动是 `import gradlab as torch`：gradlab 是一个用 numpy 实现、
行为和输出都与 PyTorch 相同的小型自动求导引擎，所以每个单元显示的正是 PyTorch 会显示的内容。

最后几个单元会把教程没有画出来的计算图画出来，并逐步播放反向传播。
"""

# %% tags=["nbval-check-output"]
import gradlab as torch

# %% [markdown]
"""
## 1. 张量

建立一个全是 1 的 2×2 张量，并要求 autograd 记录与它有关的所有运算。单元的最后一行如果是一个表达式，
Jupyter 会直接显示它的值。
"""

# %% tags=["nbval-check-output"]
x = torch.ones(2, 2 , requires_grad=True)

# %% tags=["nbval-check-output"]
x

# %% [markdown]
"""
加 2 得到 `y`。
"""

# %% tags=["nbval-check-output"]
y  = x + 2

# %% tags=["nbval-check-output"]
y

# %% [markdown]
"""
`y` 由运算产生，所以带着 `grad_fn`：一个知道如何把梯度反向穿过这次加法的对象。Jupyter 显示它时会带上内存地址，
每次运行都不同。
"""

# %% tags=["nbval-check-output"]
y.grad_fn

# %% [markdown]
"""
继续乘法和求平均。最后一行写成 `z, out`，Jupyter 会把两个结果放在一个元组里显示。
"""

# %% tags=["nbval-check-output"]
z = y * y * 3

# %% tags=["nbval-check-output"]
out = z.mean()

# %% tags=["nbval-check-output"]
z, out 

# %% [markdown]
"""
### requires_grad 的默认值

新建的张量默认不被追踪。下面用 `torch.rand` 取 0 到 1 之间的随机数；为了每次运行结果一致，
我们先调用 `torch.manual_seed(0)`（gradlab 的随机数与 PyTorch 在同一种子下完全相同）。
"""

# %% tags=["nbval-check-output"]
torch.manual_seed(0)
a = torch.rand(2, 2 )

# %% tags=["nbval-check-output"]
a = ((a*3)/(a-1))

# %% tags=["nbval-check-output"]
a.requires_grad

# %% [markdown]
"""
`requires_grad_(True)` 就地打开追踪，并返回张量本身，所以这里会显示 `a` 的值。
"""

# %% tags=["nbval-check-output"]
a.requires_grad_(True)

# %% tags=["nbval-check-output"]
a.requires_grad

# %% tags=["nbval-check-output"]
b = (a*a).sum()

# %% tags=["nbval-check-output"]
b.grad_fn

# %% [markdown]
"""
## 2. 梯度

`out` 只有一个元素，可以直接调用 `backward()`，等同于传入一个值为 1 的张量。
"""

# %% tags=["nbval-check-output"]
out.backward()

# %% [markdown]
"""
`x.grad` 就是 d(out)/dx：每个元素都是 `6(x+2)/4 = 4.5`。
"""

# %% tags=["nbval-check-output"]
x.grad

# %% [markdown]
"""
### 非标量的输出

`xx` 是三个随机数（同样先固定种子），`yy` 是它的两倍。`yy.data` 是不带计算历史的同一组数值，
`norm()` 是 2-范数（各元素平方和再开方）。
"""

# %% tags=["nbval-check-output"]
torch.manual_seed(0)
xx = torch.rand(3, requires_grad=True)

# %% tags=["nbval-check-output"]
yy = xx * 2 

# %% tags=["nbval-check-output"]
yy.data

# %% tags=["nbval-check-output"]
yy.data.norm()

# %% [markdown]
"""
不断翻倍，直到范数超过 1000。循环执行多少次取决于随机数，计算图的长度是在运行时决定的。
"""

# %% tags=["nbval-check-output"]
while yy.data.norm() < 1000:
    yy = yy*2

# %% tags=["nbval-check-output"]
yy

# %% [markdown]
"""
`yy` 有三个元素，autograd 不会去求完整的雅可比矩阵 `J`；把一个同形状的向量 `v` 交给 `backward`，
得到的是向量与雅可比矩阵的乘积 `v·J`。
"""

# %% tags=["nbval-check-output"]
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)

# %% tags=["nbval-check-output"]
yy.backward(v)

# %% [markdown]
"""
`yy` 的每个元素都是 `xx` 乘以同一个 2 的幂，所以 `xx.grad` 就是这个幂乘以 `v`。
"""

# %% tags=["nbval-check-output"]
xx.grad

# %% [markdown]
"""
## 3. 用 `with torch.no_grad():` 停止记录

`xx` 本身需要梯度，由它算出的 `xx**2` 也需要；但在 `no_grad` 块里算出的结果不会被记录。
"""

# %% tags=["nbval-check-output"]
xx

# %% tags=["nbval-check-output"]
xx.requires_grad

# %% tags=["nbval-check-output"]
(xx**2).requires_grad

# %% tags=["nbval-check-output"]
with torch.no_grad():
    print((xx**2).requires_grad)

# %% [markdown]
"""
## 教程没有画出来的东西

把第 1 部分的计算图重新建一遍并画出来。方框是张量
（蓝色：叶子张量，绿色：结果，白色：中间值），圆角灰框是反向函数。箭头沿着前向计算的方向，反向传播逆着箭头走。
`y` 被乘了两次（`y * y`），所以从 `y` 出发有两条边都通向同一个乘法节点。
"""

# %%
x = torch.ones(2, 2 , requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
from gradlab import viz
viz.set_language("zh")   # 播放器的说明、图例和按钮使用中文
viz.draw(out, names=locals())

# %% [markdown]
"""
这张图其实就是 `next_functions` 的连接：乘法节点的两个输入都指向同一个 `AddBackward0`。
"""

# %% tags=["nbval-check-output"]
z.grad_fn.next_functions[0][0].next_functions

# %% [markdown]
"""
逐步播放反向传播：每一步是一个反向函数接收梯度并传给它的输入，最后一步把梯度加进 `x.grad`。
"""

# %%
viz.animate_backward(out, names=locals())

# %% [markdown]
"""
播放器执行了真正的 `backward()`，`x.grad` 里累加的结果和前面一样是 4.5。
"""

# %% tags=["nbval-check-output"]
x.grad
