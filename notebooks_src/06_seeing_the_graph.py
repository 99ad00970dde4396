# title: Seeing the graph
# summary: Every feature of the graph drawings, from the tutorial's four-line graph to a small two-layer network: names, saved tensors (and a stale one after an in-place change), torchviz's functions-only view, left-to-right layout, the legend, the graph of a derivative, and the text tree.
# language: en

# %% [markdown]
"""
# Seeing the graph

Every time you compute with a tensor that requires gradients, autograd records a graph: which
function produced which tensor from which inputs. Backward walks that graph from the output to the
leaves. `gradlab.viz.draw` shows it.

How to read a drawing:

- **Tensors** are plain boxes: blue for leaves you created (they receive `.grad`), green for the
  output you start backward from, white for everything in between. Each shows its shape and values.
- **Functions** (the `grad_fn` objects) are rounded grey boxes named like PyTorch's
  (`AddBackward0`, `MulBackward0`, ...). Constants an operation used (like the `2` in `x + 2`)
  are written inside.
- **Arrows** follow the forward computation (input → function → result), labelled with the input
  slot they feed. Backward walks them in reverse, from the result to the leaves.
- `AccumulateGrad` is the last stop before a leaf: it adds the incoming gradient into `.grad`.
"""

# %% tags=["nbval-check-output"]
import gradlab as torch
from gradlab import viz

# %% [markdown]
"""
## The tutorial's graph

The four lines every autograd tutorial starts with. Without names, the drawing can only describe
tensors by their role.
"""

# %% tags=["nbval-check-output"]
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
print(out)

# %%
viz.draw(out)

# %% [markdown]
"""
## Names

Pass `names=locals()` and every tensor that has a variable name in this notebook is labelled with
it. (You can also pass a dict such as `{"x": x, "y": y}`, or a list of tensors.) `y * y` uses `y`
twice, so two arrows leave the `y` box.

Why is there no box for the product `y * y`? Only tensors that are still alive are drawn, and
nothing keeps that one alive: the multiplication by 3 does not need it for its backward (the
derivative of `3 * a` is just 3), so it was freed right away, exactly as in PyTorch. The arrow
then goes straight from one `MulBackward0` to the next.
"""

# %%
viz.draw(out, names=locals())

# %% [markdown]
"""
The same graph as text: `viz.tree` needs no Graphviz, and is handy in a terminal or in a test.
A tensor reached a second time is written `(see above)`.
"""

# %% tags=["nbval-check-output"]
viz.tree(out, names=locals())

# %% [markdown]
"""
The drawing is built from the same links PyTorch exposes: each function's `next_functions` lists,
for each of its inputs, the function that gradients go to next (and `None` for a constant).
"""

# %% tags=["nbval-check-output"]
print(out.grad_fn)
print(out.grad_fn.next_functions)
print(z.grad_fn.next_functions)
print(x.grad_fn, x.is_leaf)

# %% [markdown]
"""
## Saved tensors

To compute its backward, `y * y` needs both factors: the derivative of `a * b` is `b` for `a` and
`a` for `b`. Autograd therefore **saves** them when the forward runs. `show_saved=True` lists what
each function saved, with the version number of the tensor at the time.
"""

# %%
viz.draw(out, names=locals(), show_saved=True)

# %% [markdown]
"""
### A stale saved tensor

Every tensor counts its in-place changes (`._version`). If a tensor changes in place after a
function saved it, the saved value no longer matches what backward would need. The drawing marks it
**stale** in red, and backward refuses to run, with the same error as PyTorch.
"""

# %% tags=["nbval-check-output"]
a = torch.ones(3, requires_grad=True)
b = a * 2
e = b * b
print(b._version)
b.mul_(2)
print(b._version)

# %%
viz.draw(e, names=locals(), show_saved=True)

# %% tags=["nbval-check-output"]
viz.tree(e, names=locals(), show_saved=True)

# %% tags=["nbval-check-output", "raises-exception"]
e.backward(torch.ones(3))

# %% [markdown]
"""
## Functions only (torchviz's view)

[torchviz](https://github.com/szagoruyko/pytorchviz) draws only the functions, with the leaves as
small boxes. `functions_only=True` gives that compact view, useful for big graphs.
"""

# %%
viz.draw(out, names=locals(), functions_only=True)

# %% [markdown]
"""
## Left to right, and a legend

`rankdir="LR"` lays the graph out from left to right (Graphviz's `rankdir`); `legend=True` adds a
key to the colours and shapes.
"""

# %%
viz.draw(out, names=locals(), rankdir="LR", legend=True)

# %% [markdown]
"""
## The graph of a derivative

With `create_graph=True`, backward itself is recorded: the gradient is a tensor with a `grad_fn`,
and you can differentiate it again. Here `y = x³`, so `dy/dx = 3x² = 12` at `x = 2`, and the drawing
shows how that 12 was computed.
"""

# %% tags=["nbval-check-output"]
x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
(dy_dx,) = torch.autograd.grad(y, x, create_graph=True)
print(dy_dx)

# %%
viz.draw(dy_dx, names=locals())

# %% [markdown]
"""
Differentiating once more gives `d²y/dx² = 6x = 12`.
"""

# %% tags=["nbval-check-output"]
dy_dx.backward()
print(x.grad)

# %% [markdown]
"""
## A small network

A two-layer network written out by hand: four examples with three features, a hidden layer of five
`tanh` units and one output, trained against a squared error. (`torch.manual_seed(0)` makes the
random numbers PyTorch's for seed 0.)
"""

# %% tags=["nbval-check-output"]
torch.manual_seed(0)
inputs = torch.randn(4, 3)
targets = torch.randn(4, 1)
W1 = torch.randn(3, 5, requires_grad=True)
b1 = torch.zeros(5, requires_grad=True)
W2 = torch.randn(5, 1, requires_grad=True)
b2 = torch.zeros(1, requires_grad=True)

hidden = (inputs @ W1 + b1).tanh()
prediction = hidden @ W2 + b2
loss = ((prediction - targets) ** 2).mean()
print(loss)

# %%
viz.draw(loss, names=locals())

# %% [markdown]
"""
The same network as torchviz would draw it, left to right:
"""

# %%
viz.draw(loss, names=locals(), functions_only=True, rankdir="LR")

# %% tags=["nbval-check-output"]
viz.tree(loss, names=locals())

# %% [markdown]
"""
Backward fills the `.grad` of the four parameters (the leaves), and only theirs: `inputs` and
`targets` do not require gradients.
"""

# %% tags=["nbval-check-output"]
loss.backward()
print(W1.grad)
print(b1.grad)
print(W2.grad)
print(b2.grad)
print(inputs.grad)

# %% [markdown]
"""
Next: [Watching backward](07_watching_backward.ipynb) plays backward step by step on graphs like these.
"""
