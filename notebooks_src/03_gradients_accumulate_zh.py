# title: 梯度会累加 (中文)
# summary: A Chinese autograd tutorial: gradient accumulation and zeroing, view, weighted backward, no_grad in the middle of a graph and .data; then the graph with a no_grad branch drawn and backward played.
# seed: 002_2cbe050765e092f5.txt
# language: zh

# %% [markdown]
"""
# 梯度会累加：autograd 入门

这个笔记本逐个代码单元地跟随一篇中文的 PyTorch autograd 入门教程。代码里唯一的改动是第一行
`import gradlab as torch`。gradlab 是一个用 numpy 写的小型自动求导引擎，行为和打印结果都与 PyTorch 一致，
所以下面的代码读起来和教程完全相同，打印出来的也正是 PyTorch 会打印的内容。

教程的代码之后还有几个单元，把教程只用文字描述的东西直接展示出来：autograd 建立的计算图，
以及沿着这张图一步一步执行的反向传播。
"""

# %% [markdown]
"""
## 会被追踪的张量

`requires_grad=True` 告诉 autograd：之后要对这个张量求导，所以对它做的每一步运算都要记下来。
`x` 是我们自己创建的，不是由运算得到的，因此它的 `grad_fn` 是 `None`。
"""

# %% tags=["nbval-check-output"]
import gradlab as torch
x = torch.ones(2, 2, requires_grad=True)
print(x)
print(x.grad_fn)

# %% [markdown]
"""
`y` 是加法的结果，它的 `grad_fn` 指向加法对应的反向函数 `AddBackward0`。对象地址（`0x...`）每次运行都不一样。
"""

# %% tags=["nbval-check-output"]
y = x + 2
print(y)
print(y.grad_fn)

# %% [markdown]
"""
再做两次乘法和一次求平均：`z` 记录的是乘法，只有一个数的 `out` 记录的是平均值。
"""

# %% tags=["nbval-check-output"]
z = y * y * 3
out = z.mean()
print(z, out)

# %% [markdown]
"""
## 事后打开追踪

不指定时，新张量的 `requires_grad` 是 `False`，由它算出来的结果也不会被记录。`requires_grad_(True)`
就地修改这个标志，之后的 `(a * a).sum()` 就有了 `grad_fn`。
教程在这里用了随机数；我们加上 `torch.manual_seed(0)`，让每次运行得到相同的数
（gradlab 的随机数生成器与 PyTorch 的相同，所以这些数和 PyTorch 在种子 0 下给出的一样）。
"""

# %% tags=["nbval-check-output"]
torch.manual_seed(0)
a = torch.randn(2, 2) 
a = ((a * 3) / (a - 1))
print(a)
print(a.requires_grad) # False

a.requires_grad_(True)
print(a.requires_grad) # True

b = (a * a).sum()
print(b.grad_fn)

# %% [markdown]
"""
## 反向传播

`out` 是标量，所以 `backward()` 不需要参数（相当于传入 `torch.tensor(1.)`）。结果存放在 `x.grad` 里：
`out` 是 `3(x+2)²` 的平均值，对每个元素的导数是 `6(x+2)/4`，在 `x = 1` 处等于 4.5。

从数学上说，autograd 做的事情是计算"向量乘以雅可比矩阵"，而不是把整个雅可比矩阵求出来。
"""

# %% tags=["nbval-check-output"]
out.backward() 
print(x.grad)

# %% [markdown]
"""
## 梯度是累加的

再对 `x.sum()` 做一次反向传播。`x.sum()` 对每个元素的导数是 1，但 `x.grad` 并没有被覆盖，而是在原来的 4.5
上加了 1，变成 5.5。想要得到"干净"的梯度，必须先把 `x.grad` 清零，这就是训练循环里每一步都要清零梯度的原因。
"""

# %% tags=["nbval-check-output"]
out2 = x.sum()
out2.backward()
print(x.grad)

out3 = x.sum()
x.grad.data.zero_()
out3.backward()
print(x.grad)

# %% [markdown]
"""
## 改变形状：view

`view` 只是换一种形状来看同一块数据，它也会被记录下来。现在的 PyTorch 把它的反向函数叫作 `ViewBackward0`
（旧版本的教程里显示的是 `ViewBackward`）。
"""

# %% tags=["nbval-check-output"]
x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
y = 2 * x
z = y.view(2, 2)
print(z)

# %% [markdown]
"""
`z` 不是标量，调用 `backward` 时要给一个和 `z` 形状相同的权重 `v`，autograd 计算的是 `v` 加权求和之后的梯度。
因为 `z = 2x`，所以 `x.grad` 就是 `2v` 按原来的形状摊平。
"""

# %% tags=["nbval-check-output"]
v = torch.tensor([[1.0, 0.1], [0.01, 0.001]], dtype=torch.float)
z.backward(v)
print(x.grad)

# %% [markdown]
"""
## 在图中间停止追踪

`y2` 是在 `torch.no_grad()` 里算出来的，它没有 `grad_fn`，只是一个普通的数。所以 `y3 = y1 + y2` 反向传播时，
只有 `y1 = x²` 这一支把梯度送回 `x`：结果是 `2x = 2`，而不是 `2x + 3x² = 5`。
"""

# %% tags=["nbval-check-output"]
x = torch.tensor(1.0, requires_grad=True)
y1 = x ** 2 
with torch.no_grad():
    y2 = x ** 3
y3 = y1 + y2

print(x.requires_grad)
print(y1, y1.requires_grad) # True
print(y2, y2.requires_grad) # False
print(y3, y3.requires_grad) # True

y3.backward()
print(x.grad)

# %% [markdown]
"""
## 通过 .data 修改数值

`x.data` 和 `x` 共享同一块数据，但它不在计算图里（`requires_grad` 为 `False`）。通过它把 `x` 乘以 100，
`x` 的值变了，autograd 却毫不知情；`y = 2 * x` 的梯度依然是 2。这种写法会绕过 autograd 的检查，要谨慎使用。
"""

# %% tags=["nbval-check-output"]
x = torch.ones(1,requires_grad=True)

print(x.data)
print(x.data.requires_grad)

y = 2 * x
x.data *= 100

y.backward()
print(x)
print(x.grad)

# %% [markdown]
"""
## 教程没有画出来的东西

重新构造"在图中间停止追踪"那个例子，并把计算图画出来。方框是张量
（蓝色：我们自己创建的叶子张量，绿色：结果，白色：中间值），圆角灰框是反向函数（`grad_fn`）。
箭头沿着前向计算的方向；反向传播则逆着箭头，从结果走回叶子张量。注意 `y2` 在图里只是一个没有来路的常量。
"""

# %%
x = torch.tensor(1.0, requires_grad=True)
y1 = x ** 2
with torch.no_grad():
    y2 = x ** 3
y3 = y1 + y2
from gradlab import viz
viz.set_language("zh")   # 播放器的说明、图例和按钮使用中文
viz.draw(y3, names=locals())

# %% [markdown]
"""
图是由 `next_functions` 连起来的：它为每个输入记录梯度下一步要去的地方。`y3` 的加法只有第一个输入
（`y1` 的 `PowBackward0`）连着图，第二个输入 `y2` 对应的是 `None`。
"""

# %% tags=["nbval-check-output"]
print(y3.grad_fn.next_functions)
print(y2.grad_fn)

# %% [markdown]
"""
一步一步地播放反向传播：每一步是一个反向函数接收梯度、再把梯度传给它的输入；最后一步把结果加进 `x.grad`。
点击播放按钮，或者拖动滑块。
"""

# %%
viz.animate_backward(y3, names=locals())

# %% [markdown]
"""
播放器真的执行了一次 `backward()`，所以 `x.grad` 里已经有了只来自 `y1` 那一支的梯度 2。
"""

# %% tags=["nbval-check-output"]
print(x.grad)
