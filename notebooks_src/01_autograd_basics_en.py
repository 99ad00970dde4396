# title: Autograd basics (English)
# summary: The classic first autograd tutorial, cell by cell: requires_grad, grad_fn, backward, vector-Jacobian products and no_grad; then the graph drawn and backward played step by step.
# seed: 000_062b1e8a1bc57c72.txt
# language: en

# %% [markdown]
"""
# Autograd basics

This notebook follows a well-known introduction to PyTorch's autograd, one code cell at a time.
The only change to the code is the first line: `import gradlab as torch`. gradlab is a small
autograd engine written in numpy that behaves and prints like PyTorch, so every cell below reads
exactly like the tutorial, and what it prints is what PyTorch prints.

After the tutorial's own cells, a last section shows the things the tutorial can only talk about:
the graph that autograd builds, and backward running through it step by step.
"""

# %% tags=["nbval-check-output"]
import gradlab as torch

# %% [markdown]
"""
## Tensors that remember where they came from

Passing `requires_grad=True` marks a tensor as something we will want derivatives for.
From now on, every operation that uses it is written down.
"""

# %% tags=["nbval-check-output"]
x = torch.ones(2, 2, requires_grad=True)
print(x)

# %% [markdown]
"""
Adding 2 gives a new tensor. Its printout ends with `grad_fn=<AddBackward0>`: the name of the
backward function that knows how to send a gradient back through this addition.
"""

# %% tags=["nbval-check-output"]
y = x + 2
print(y)

# %% [markdown]
"""
`grad_fn` is an object of its own, a node of the graph. Its printed address changes from run to run.
"""

# %% tags=["nbval-check-output"]
print(y.grad_fn)

# %% [markdown]
"""
Two multiplications and an average: `z` remembers a multiplication (`MulBackward0`), and `out`, a
single number, remembers the mean (`MeanBackward0`).
"""

# %% tags=["nbval-check-output"]
z = y*y*3
out = z.mean()
print(z, out)

# %% [markdown]
"""
## Switching tracking on later

A tensor made without `requires_grad` is not tracked, and neither is anything computed from it.
Setting the attribute afterwards turns tracking on, and the sum of squares then gets a `grad_fn`.
The tutorial draws random numbers here; `torch.manual_seed(0)` makes them the same on every run
(gradlab's generator is PyTorch's, so these are the numbers PyTorch gives with seed 0).
"""

# %% tags=["nbval-check-output"]
torch.manual_seed(0)
a = torch.randn(2, 2)
a = ((a * 3) / (a - 1))
print(a)
print(a.requires_grad)
a.requires_grad = True
print(a.requires_grad)
b = (a * a).sum()
print(b.grad_fn)

# %% [markdown]
"""
## Backward

`out` holds one number, so `backward()` needs no argument: it walks the graph from `out` back to
`x` and stores d(out)/dx in `x.grad`.
"""

# %% tags=["nbval-check-output"]
out.backward()

# %% [markdown]
"""
Each of the four entries of `x` contributes to `out` through `3 * (x + 2)**2 / 4`, whose
derivative at `x = 1` is `6 * 3 / 4 = 4.5`.
"""

# %% tags=["nbval-check-output"]
print(x.grad)

# %% [markdown]
"""
## When the result is not a single number

Here `x` is random and gets doubled until the vector is longer than 1000. How many doublings
that takes depends on the numbers drawn, so the graph's length is decided while the code runs.
"""

# %% tags=["nbval-check-output"]
torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
y = x * 2
while y.data.norm()<1000:
    y = y * 2
print(y)

# %% [markdown]
"""
`y` has three entries, so there is no single derivative to compute. Handing `backward` a vector `v`
asks for the vector-Jacobian product `v @ J` instead. Every entry of `y` is `x` times the same power
of two, so `x.grad` is that power of two times `v`.
"""

# %% tags=["nbval-check-output"]
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y.backward(v)
print(x.grad)

# %% [markdown]
"""
## Turning tracking off

Inside `with torch.no_grad():` nothing is written down, even for tensors that require gradients.
"""

# %% tags=["nbval-check-output"]
print(x.requires_grad)
print((x**2).requires_grad)

with torch.no_grad():
    print((x ** 2).requires_grad)

# %% [markdown]
"""
## What the tutorial could only describe

Let us build the first graph again, so that every tensor in it has a name, and draw it. Square
boxes are tensors (blue: a leaf you created, green: the result, white: in between), rounded grey
boxes are the backward functions (`grad_fn`). The arrows follow the forward computation; backward
walks them in reverse, from the result to the leaves.
"""

# %%
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
from gradlab import viz
viz.draw(out, names=locals())

# %% [markdown]
"""
The drawing is made from links you can also follow by hand: each function's `next_functions`
names, for each of its inputs, where the gradient goes next (`None` for a constant).
"""

# %% tags=["nbval-check-output"]
print(out.grad_fn)
print(out.grad_fn.next_functions)
print(y.grad_fn.next_functions)

# %% [markdown]
"""
Now play backward. Each step is one backward function receiving a gradient and passing gradients
on to its inputs; the last step adds the result into `x.grad`. Press play, or drag the slider.
"""

# %%
viz.animate_backward(out, names=locals())

# %% [markdown]
"""
The player ran a real `backward()`, so the gradient has been accumulated into `x.grad`: the same
4.5 everywhere as above.
"""

# %% tags=["nbval-check-output"]
print(x.grad)
