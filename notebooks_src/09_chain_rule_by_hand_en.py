# title: The chain rule by hand
# summary: The autograd tutorial's gradient worked out on paper, factor by factor, and checked against backward: the formulas in the drawing, the chain-rule line of each player step, vᵀJ for a vector output, a Jacobian, and a quiz where you predict each gradient.
# language: en

# %% [markdown]
"""
# The chain rule by hand

`out.backward()` fills `x.grad` in one line. In this notebook we compute the same numbers ourselves,
with pencil-and-paper calculus, and then check that backward did exactly that: it multiplies one
small local derivative per operation, from the output back to the leaves. That is the **chain rule**.
"""

# %% tags=["nbval-check-output"]
import gradlab as torch
from gradlab import viz

# %% [markdown]
"""
## The example

The autograd tutorial builds this graph from a 2×2 tensor of ones:
"""

# %% tags=["nbval-check-output"]
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
print(out)

# %% [markdown]
"""
Written out for one element $x_i$ (there are four, all equal to 1):

$$o = \frac{1}{4}\sum_{i} z_i, \qquad z_i = 3\,y_i^2, \qquad y_i = x_i + 2,
\qquad\text{so}\qquad z_i = 3\,(x_i + 2)^2 .$$

The chain rule says: to see how $o$ changes when $x_i$ moves, multiply how each step changes the next one:

$$\frac{\partial o}{\partial x_i}
= \frac{\partial o}{\partial z_i}\cdot\frac{\partial z_i}{\partial y_i}\cdot\frac{\partial y_i}{\partial x_i}
= \frac{1}{4}\cdot 6\,y_i\cdot 1 = \frac{3}{2}\,(x_i + 2) = \frac{3}{2}\cdot 3 = 4.5 .$$
"""

# %% [markdown]
"""
## Each local derivative in code

One factor per line. `y.detach()` gives the values of `y` without recording anything: these are plain
numbers, not part of the graph.
"""

# %% tags=["nbval-check-output"]
do_dz = torch.ones(2, 2) / 4      # o is the mean of 4 numbers: each one counts 1/4
dz_dy = 6 * y.detach()            # z = 3 y², so dz/dy = 6 y = 18
dy_dx = torch.ones(2, 2)          # y = x + 2, so dy/dx = 1
print(do_dz)
print(dz_dy)
print(dy_dx)

# %% [markdown]
"""
Their product is the gradient, and it agrees with the closed form $\frac{3}{2}(x_i + 2)$. Then we let
backward do it and compare: `torch.equal` is `True` only when every element is the same.
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
## The formulas in the drawing

Each `grad_fn` node knows the derivative of its own operation and nothing else. With `formulas=True`
the drawing lists that rule for each input: `grad` is the gradient arriving from above, and
`grad_self` / `grad_other` are what the node sends to its first / second input. We build the graph
again, since the backward above has used it up.
"""

# %%
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
viz.draw(out, names=locals(), formulas=True)

# %% [markdown]
"""
The graph splits our middle factor in two. `y * y * 3` is `(y * y) * 3`: one `MulBackward0` multiplies
by the constant 3, and the other one (`y * y`) sends `grad * other` to one input and `grad * self` to the
other. Both inputs are `y`, so `y` receives the **sum**, `grad · y + grad · y = 2y · grad`.
Together: $3 \cdot 2y = 6y$, the factor we wrote by hand.
"""

# %% [markdown]
"""
## Watching the factors multiply

Play backward step by step. Under each caption, the line starting with **Chain rule:** is the node's
formula with this step's numbers filled in: `0.25`, then `0.25 * 3 = 0.75`, then `0.75 * 3 = 2.25`
sent twice to `y` (which adds up to 4.5), and finally `grad = 4.5` for `x`.
"""

# %%
viz.animate_backward(out, names=locals())

# %% [markdown]
"""
The same lines as text: `viz.record_backward` runs a real backward, as the player did, and returns
its steps (frames). `frame.rule` is the chain-rule line of a step; it is empty at the start and for
`AccumulateGrad`, which only stores what it receives. Once more on a fresh graph:
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
## A vector output: vᵀJ

The tutorial's second example doubles a random vector until its norm passes 1000. `manual_seed(0)`
makes the numbers the same every time (they are the ones PyTorch draws with seed 0).
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
`y` has three elements, so there is no single "derivative of `y`": there are nine, $\partial y_i/\partial x_j$,
the Jacobian matrix $J$. `y.backward(v)` does not build $J$. It starts the chain rule with the vector `v`
instead of 1 and ends with the product $v^\top J$. `viz.vjp` shows the three pieces:
"""

# %% tags=["nbval-check-output"]
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
viz.vjp(y, x, v)

# %% tags=["nbval-check-output"]
y.backward(v)
print(x.grad)

# %% [markdown]
"""
By hand: each $y_i$ is $x_i$ doubled nine times, $y_i = 512\,x_i$. So $\partial y_i/\partial x_i = 512$,
and $\partial y_i/\partial x_j = 0$ for $j \ne i$ ($y_i$ does not use $x_j$). We write that $J$ down and
multiply:
"""

# %% tags=["nbval-check-output"]
scale = y.data[0] / x.data[0]     # how much y grew: 2 ** 9
J = torch.eye(3) * scale
print(J)
print(v @ J)
print(torch.equal(x.grad, v @ J))

# %% [markdown]
"""
## The Jacobian of a function

`viz.jacobian(f, x)` computes $J$ for any function and labels its rows (outputs) and columns (inputs).
For the element-wise square $y = t \cdot t$, output $y_i = t_i^2$ depends on $t_i$ alone: every entry off
the diagonal is 0, and the diagonal holds $2\,t_i = 2, 4, 6$.
"""

# %% tags=["nbval-check-output"]
viz.jacobian(lambda t: t * t, torch.tensor([1., 2., 3.]))

# %% [markdown]
"""
Mix the elements and the zeros go: in $y = t \cdot \sum_j t_j$ every output uses every input.
"""

# %% tags=["nbval-check-output"]
viz.jacobian(lambda t: t * t.sum(), torch.tensor([1., 2., 3.]))

# %% [markdown]
"""
## Your turn: predict each gradient

The tutorial's graph once more, as a quiz. At each step, work out with the chain rule what the node
sends, type it (`0.25`, or a whole tensor) and press **Check**: the quiz says right or wrong and shows
the formula. Checking an answer needs a running kernel: run the cell first (in a notebook opened
from a file, the quiz shows only its graph until then).
"""

# %%
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
viz.animate_backward(out, names=locals(), quiz=True)
