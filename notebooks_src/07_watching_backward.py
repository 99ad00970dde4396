# title: Watching backward
# summary: Backward played step by step: the animation, fan-out (y * y), gradients that accumulate across calls, retain_graph, no_grad, detach, hooks, and create_graph (the backward of a backward).
# language: en

# %% [markdown]
"""
# Watching backward

`out.backward()` is one line, but it does a lot: starting from `out`, every backward function
receives the gradient of its output, computes the gradients of its inputs and sends them on, until
they arrive at the leaves and are **added** into `.grad`.

`gradlab.viz.animate_backward(out)` runs a real backward and records each of those steps, then
gives you a player: press ▶ or drag the slider. The node being worked on is highlighted, arrows show
the gradient they carry, and the caption explains the step. The player runs entirely in the page,
so it keeps working in a saved or exported notebook.
"""

# %% tags=["nbval-check-output"]
import gradlab as torch
from gradlab import viz

# %% [markdown]
"""
## The tutorial's graph, played

`out` is the mean of `3 (x + 2)²`, so each entry of `x.grad` should end up as `6 (x + 2) / 4 = 4.5`.
"""

# %%
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
viz.animate_backward(out, names=locals())

# %% [markdown]
"""
The player did run backward: the gradient is in `x.grad`.
"""

# %% tags=["nbval-check-output"]
print(x.grad)

# %% [markdown]
"""
## Fan-out: one tensor used twice

In `y * y` the tensor `y` feeds both inputs of the multiplication. Backward sends a gradient along
each use, and the two are **summed** before going further: `d(y²)/dy = y + y = 2y`. In the player,
watch `AddBackward0` wait until both gradients have arrived.
"""

# %%
a = torch.tensor(2.0, requires_grad=True)
y = a + 1
z = y * y
viz.animate_backward(z, names=locals())

# %% tags=["nbval-check-output"]
print(z.grad_fn.next_functions)  # both inputs lead to the same AddBackward0

# %% tags=["nbval-check-output"]
print(a.grad)  # 2 * y = 2 * 3

# %% [markdown]
"""
## Gradients accumulate across calls

Backward never overwrites `.grad`: it adds to it. Three backward calls through `x * x` at `x = 1`
add `2` three times. That is why a training loop sets the gradients to zero before each step.
"""

# %% tags=["nbval-check-output"]
x = torch.tensor(1.0, requires_grad=True)
for step in range(3):
    loss = x * x
    loss.backward()
    print(step, x.grad)

# %% [markdown]
"""
The player shows the same thing in its last step: the `AccumulateGrad` box adds the incoming `2` to
the `6` already stored.
"""

# %%
loss = x * x
viz.animate_backward(loss, names=locals())

# %% tags=["nbval-check-output"]
print(x.grad)
x.grad = None  # start afresh (optimizer.zero_grad() does this)
print(x.grad)

# %% [markdown]
"""
## `retain_graph`: backward twice

`x * x` saved `x` for its backward, and backward frees saved tensors once it has used them. A second
backward through the same graph therefore fails, unless the first one was told to keep them with
`retain_graph=True`. The player takes the same argument.
"""

# %%
x = torch.tensor(3.0, requires_grad=True)
square = x * x
viz.animate_backward(square, retain_graph=True, names=locals())

# %% tags=["nbval-check-output"]
square.backward()  # works: the graph was retained
print(x.grad)

# %% tags=["nbval-check-output", "raises-exception"]
square.backward()  # the previous backward did not retain the graph

# %% [markdown]
"""
## `no_grad`: nothing recorded

Inside `torch.no_grad()` results get no `grad_fn`: they are constants as far as autograd knows. Here
`cube` is computed without recording, so backward only goes through `square`: `d(x²)/dx = 2x = 4`,
not `2x + 3x² = 16`.
"""

# %% tags=["nbval-check-output"]
x = torch.tensor(2.0, requires_grad=True)
square = x ** 2
with torch.no_grad():
    cube = x ** 3
print(cube, cube.requires_grad, cube.grad_fn)
total = square + cube
print(total)

# %%
viz.animate_backward(total, names=locals())

# %% tags=["nbval-check-output"]
print(x.grad)

# %% [markdown]
"""
## `detach`: cutting a branch

`detach()` returns the same numbers as a tensor with no history. Below, `y.detach()` is treated as
the constant 4 in `y * y.detach()`, so the gradient is `4 · dy/dx = 4 · 2 = 8` instead of
`2y · dy/dx = 16`.
"""

# %% tags=["nbval-check-output"]
x = torch.tensor(2.0, requires_grad=True)
y = 2 * x
frozen = y.detach()
print(frozen, frozen.requires_grad)
product = y * frozen
print(product)

# %%
viz.animate_backward(product, names=locals())

# %% tags=["nbval-check-output"]
print(x.grad)

# %% [markdown]
"""
## Hooks: looking at (and changing) a gradient in flight

`tensor.register_hook(fn)` calls `fn` with the gradient arriving at that tensor during backward. If
`fn` returns a tensor, it replaces the gradient. Here one hook prints what reaches `y`, and a second
one doubles it before it continues to `x`.
"""

# %% tags=["nbval-check-output"]
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
out = (y * y).sum()
peek = y.register_hook(lambda grad: print("gradient reaching y:", grad))
double = y.register_hook(lambda grad: grad * 2)
out.backward()
print(x.grad)  # 2 * (2y * 3) = 36x

# %% [markdown]
"""
`handle.remove()` takes a hook away again.
"""

# %% tags=["nbval-check-output"]
peek.remove()
double.remove()
x.grad = None
y = x * 3
(y * y).sum().backward()
print(x.grad)  # 18x

# %% [markdown]
"""
## `create_graph`: the backward of a backward

With `create_graph=True`, the gradient computation is itself recorded, so the gradient has a
`grad_fn` and can be differentiated again. For `y = x³` at `x = 2`: `dy/dx = 3x² = 12`, and
`d²y/dx² = 6x = 12`.
"""

# %% tags=["nbval-check-output"]
x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
(dy_dx,) = torch.autograd.grad(y, x, create_graph=True)
print(dy_dx)

# %% [markdown]
"""
Playing backward through the gradient's own graph:
"""

# %%
viz.animate_backward(dy_dx, names=locals())

# %% tags=["nbval-check-output"]
print(x.grad)  # d²y/dx² = 6x
