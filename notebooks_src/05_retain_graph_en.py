# title: Autograd and retain_graph (English)
# summary: The older official "Autograd" tutorial: .data, .grad and .grad_fn of a fresh tensor, backward twice with retain_graph, a random gradient, no_grad; then a second backward that really fails, the graph with its saved tensors, and backward played.
# seed: 004_ac8f57969690b9d3.txt
# language: en

# %% [markdown]
"""
# Autograd and `retain_graph`

This notebook walks through an early version of PyTorch's official autograd tutorial, one code
cell at a time, with `import gradlab as torch` as the only change. gradlab is a numpy autograd
engine that prints exactly like PyTorch, so the code is the tutorial's and the output is what
today's PyTorch prints. Where that differs from the old tutorial page, the text says so.

At the end, extra cells show a backward pass that really needs `retain_graph`, the graph itself,
and backward played step by step.
"""

# %% tags=["nbval-check-output"]
import gradlab as torch

# %% [markdown]
"""
## A tensor that records history

`requires_grad=True` asks autograd to record every operation that uses `x`.
"""

# %% tags=["nbval-check-output"]
x = torch.ones(2, 2, requires_grad=True)
print(x)

# %% [markdown]
"""
`x.data` is the same numbers without the autograd bookkeeping (note: no `requires_grad=True` in
its printout).
"""

# %% tags=["nbval-check-output"]
print(x.data)

# %% [markdown]
"""
No backward has run yet, so there is no gradient: `x.grad` is `None`.
"""

# %% tags=["nbval-check-output"]
print(x.grad)

# %% [markdown]
"""
`x` was typed in by us rather than computed, so no function created it: `grad_fn` is `None` too.
"""

# %% tags=["nbval-check-output"]
print(x.grad_fn)  # we've created x ourselves

# %% [markdown]
"""
## Operations build the graph

The sum is computed, and `y` records the function that will carry gradients back through it.
"""

# %% tags=["nbval-check-output"]
y = x + 2
print(y)

# %% tags=["nbval-check-output"]
print(y.grad_fn)

# %% [markdown]
"""
Two more steps. The old tutorial page shows `MeanBackward1` for the mean; PyTorch has since
renamed it, and today prints `MeanBackward0` for `z.mean()`.
"""

# %% tags=["nbval-check-output"]
z = y * y * 3
out = z.mean()
print(z, out)

# %% [markdown]
"""
## Turning tracking on afterwards

`requires_grad_()` flips the flag of an existing tensor in place (with no argument it means `True`).
The tutorial draws random numbers here: `torch.manual_seed(0)` makes them repeatable, and since
gradlab's generator is PyTorch's, they are PyTorch's numbers for seed 0.
"""

# %% tags=["nbval-check-output"]
torch.manual_seed(0)
a = torch.randn(2, 2)
a = ((a * 3) / (a - 1))
print(a.requires_grad)
a.requires_grad_(True)
print(a.requires_grad)
b = (a * a).sum()
print(b.grad_fn)

# %% [markdown]
"""
## Gradients

Backward from the single number `out` fills `x.grad` with d(out)/dx = `6 (x + 2) / 4` = 4.5.
"""

# %% tags=["nbval-check-output"]
out.backward()
print(x.grad)

# %% [markdown]
"""
## Backward more than once

Backward normally frees what the graph kept for it, so a second backward through the same graph
needs `retain_graph=True` the first time (older versions called it `retain_variables`). `y` is not
a single number, so we pass a gradient of ones of its shape.
"""

# %% tags=["nbval-check-output"]
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
y.backward(torch.ones(2, 2), retain_graph=True)
print(x.grad)

# %% [markdown]
"""
A new product built on top of `y`:
"""

# %% tags=["nbval-check-output"]
z = y * y
print(z)

# %% [markdown]
"""
A second backward through `y`, this time with random weights (seeded). The gradient is added to
the ones already in `x.grad`. The tutorial says this would fail without `retain_graph`; for this
graph it would actually work, because an addition keeps nothing for backward. The extra cells at
the end show a graph where it really fails.
"""

# %% tags=["nbval-check-output"]
torch.manual_seed(0)
gradient = torch.randn(2, 2)
y.backward(gradient)
print(x.grad)

# %% [markdown]
"""
## Stopping the recording

Inside `with torch.no_grad():` nothing is recorded, even for tensors that require gradients.
(The tutorial page lost the indentation of the last line; it belongs inside the `with` block.)
"""

# %% tags=["nbval-check-output"]
print(x.requires_grad)
print((x ** 2).requires_grad)
with torch.no_grad():
    print((x ** 2).requires_grad)

# %% [markdown]
"""
## What the tutorial could only describe

`z = y * y` keeps `y` for its backward (the derivative of `y * y` needs `y`). The first backward
frees it; a second one then has nothing to work with and stops with an error.
"""

# %% tags=["nbval-check-output"]
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y
z.backward(torch.ones(2, 2))
print(x.grad)

# %% tags=["nbval-check-output", "raises-exception"]
z.backward(torch.ones(2, 2))

# %% [markdown]
"""
Here is the graph. Square boxes are tensors (blue: a leaf, green: the result, white: in between),
rounded grey boxes are backward functions; arrows follow the forward computation, and backward walks
them in reverse. With `show_saved=True` each function also lists the tensors it keeps for backward.
"""

# %%
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y
from gradlab import viz
viz.draw(z, names=locals(), show_saved=True)

# %% [markdown]
"""
PyTorch exposes what a function saved as `_saved_<input>` attributes: here both factors of `y * y`
are `y` itself.
"""

# %% tags=["nbval-check-output"]
print(z.grad_fn._saved_self)
print(z.grad_fn._saved_other is y, z.grad_fn._saved_self.equal(y))

# %% [markdown]
"""
Backward, one step at a time: each step is one function receiving a gradient and passing
gradients to its inputs; the last step adds into `x.grad`. Press play or drag the slider.
"""

# %%
viz.animate_backward(z, gradient=torch.ones(2, 2), names=locals())

# %% [markdown]
"""
The player ran a real backward: `x.grad` holds d(sum z)/dx = `2 (x + 2)` = 6.
"""

# %% tags=["nbval-check-output"]
print(x.grad)
