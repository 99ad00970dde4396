# title: Training a tiny network
# summary: A small neural network learns to separate two interleaved half-moons: nn.Sequential, CrossEntropyLoss, an optimizer and the training loop (zero_grad, forward, loss, backward, step), one training step drawn and its backward played, the loss curve, the decision boundary and the final accuracy.
# language: en

# %% [markdown]
"""
# Training a tiny network

The earlier notebooks computed gradients of small formulas. Training a neural network is the same
thing, repeated: compute a **loss** that says how wrong the network is, call `backward()` to get the
gradient of the loss with respect to every weight, and nudge every weight a little against its
gradient. Do that a few hundred times and the network has learned.

In this notebook a network with two hidden layers learns to tell apart two interleaved half-moons
of points in the plane. Everything uses PyTorch's API (`gradlab.nn`, `gradlab.optim`): replace
`import gradlab as torch` with `import torch` and the same code runs on PyTorch, with the same
random weights and the same losses.
"""

# %% tags=["nbval-check-output"]
import numpy as np
import matplotlib.pyplot as plt

import gradlab as torch
from gradlab import nn, optim, viz

plt.rcParams["figure.dpi"] = 100

# %% [markdown]
"""
## The data: two half-moons

Two classes of 100 points each. Class 0 lies on an upper arc, class 1 on a lower arc shifted to the
right, so that the two arcs interlock; a little random noise blurs them. No straight line can
separate them, so the network has to learn a curved boundary.

The numbers come from numpy's random generator with a fixed seed, so every run (and every
reader) gets the same points.
"""

# %% tags=["nbval-check-output"]
def make_moons(n_per_class, noise, seed):
    rng = np.random.default_rng(seed)
    angle = rng.uniform(0, np.pi, size=(2, n_per_class))
    upper = np.stack([np.cos(angle[0]), np.sin(angle[0])], axis=1)            # class 0
    lower = np.stack([1 - np.cos(angle[1]), 0.5 - np.sin(angle[1])], axis=1)  # class 1
    points = np.concatenate([upper, lower]) + rng.normal(scale=noise, size=(2 * n_per_class, 2))
    points = points - [0.5, 0.25]  # centre the picture on (0, 0)
    labels = np.repeat([0, 1], n_per_class)
    return points.astype(np.float32), labels


points, labels = make_moons(n_per_class=100, noise=0.2, seed=0)
X = torch.tensor(points)  # float32: one row (x, y) per point
y = torch.tensor(labels)  # int64: the class of each point, 0 or 1
print(X.shape, X.dtype)
print(y.shape, y.dtype)
print("points per class:", np.bincount(labels))

# %%
def plot_points(ax):
    for cls, colour in [(0, "tab:blue"), (1, "tab:orange")]:
        chosen = labels == cls
        ax.scatter(points[chosen, 0], points[chosen, 1], s=20, c=colour, edgecolors="black",
                   linewidths=0.4, label=f"class {cls}")
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    ax.set_aspect("equal")


fig, ax = plt.subplots(figsize=(6, 4))
plot_points(ax)
ax.set_title("The training data: two interleaved half-moons")
ax.legend(loc="upper right")
plt.show()

# %% [markdown]
"""
## The network

`nn.Sequential` chains layers: each one's output is the next one's input.

- `nn.Linear(2, 16)` computes `x @ W.T + b`: from the 2 coordinates of a point to 16 numbers.
- `nn.Tanh()` bends them (without a non-linearity between them, stacked linear layers would
  collapse into a single linear map, and a straight boundary).
- The last `nn.Linear(16, 2)` gives two numbers per point, one per class: the **logits**. The
  larger one is the network's guess.

`torch.manual_seed(0)` fixes the random initial weights: they are exactly PyTorch's for seed 0.
Printing a model shows its layers, with the same text as PyTorch.
"""

# %% tags=["nbval-check-output"]
torch.manual_seed(0)
model = nn.Sequential(
    nn.Linear(2, 16),
    nn.Tanh(),
    nn.Linear(16, 16),
    nn.Tanh(),
    nn.Linear(16, 2),
)
print(model)

# %% [markdown]
"""
The weights and biases are the model's **parameters**: tensors with `requires_grad=True`, which
`model.parameters()` hands to the optimizer. Their names say which layer they belong to (`0` is the
first `Linear`, `2` the second, `4` the last; the `Tanh` layers have no parameters).
"""

# %% tags=["nbval-check-output"]
for name, param in model.named_parameters():
    print(f"{name:9} {str(tuple(param.shape)):9} requires_grad={param.requires_grad}")
print("parameters in total:", sum(param.numel() for param in model.parameters()))

# %% tags=["nbval-check-output"]
print(model[4].bias)

# %% [markdown]
"""
## Loss and optimizer

`nn.CrossEntropyLoss` turns the two logits of each point into probabilities (softmax) and takes
the average of `-log(probability of the correct class)`: small when the network is confidently
right, large when it is confidently wrong. A network that guesses 50/50 scores `log 2 ≈ 0.693`.

The optimizer updates the parameters from their gradients. `optim.SGD` with `lr=0.1` subtracts
`0.1 × gradient`; with `momentum=0.9` it keeps a running sum of past gradients and steps along it,
which goes faster along directions the gradient keeps pointing to.
"""

# %% tags=["nbval-check-output"]
loss_fn = nn.CrossEntropyLoss()
optimizer = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

# %% [markdown]
"""
## One training step, slowly

A training step has five parts, always in this order:

1. `optimizer.zero_grad()`: clear the gradients of the previous step (backward **adds** into `.grad`).
2. forward: `logits = model(inputs)`,
3. the loss: `loss = loss_fn(logits, targets)`,
4. `loss.backward()`: the gradient of the loss for every parameter, into `param.grad`,
5. `optimizer.step()`: change every parameter using its `.grad`.

To look at each part, we take a step on just four points, two of each class.
"""

# %% tags=["nbval-check-output"]
chosen = [0, 1, 100, 101]
inputs = torch.tensor(points[chosen])
targets = torch.tensor(labels[chosen])

optimizer.zero_grad()
logits = model(inputs)
loss = loss_fn(logits, targets)
print(logits)
print(targets)
print(loss)

# %% [markdown]
"""
The loss is a tensor with a `grad_fn`: autograd recorded how it was computed, all the way back to the
parameters. `CrossEntropyLoss` is `log_softmax` followed by the negative log-likelihood, hence the
two last functions; each `Linear` layer is one `addmm` (`bias + input @ weight.T`).
"""

# %% tags=["nbval-check-output"]
print(loss.grad_fn)
print(loss.grad_fn.next_functions)
print(logits.grad_fn)

# %% [markdown]
"""
### The graph of one step

To label the parameters in the drawing, we pass their names from `model.named_parameters()`
together with our own variables. The tensors computed inside the model (the outputs of the hidden
layers) have no variable name, so the drawing shows only their shape and values. `inputs` and
`targets` do not appear: they do not require gradients, so backward has nothing to send them.
"""

# %%
names = {**dict(model.named_parameters()), "inputs": inputs, "targets": targets,
         "logits": logits, "loss": loss}
viz.draw(loss, names=names)

# %% [markdown]
"""
Only the functions, left to right (the view torchviz draws): three `AddmmBackward0` for the three
`Linear` layers, each with a `TBackward0` for its transposed weight, two `TanhBackward0`, and the
loss at the end.
"""

# %%
viz.draw(loss, names=names, functions_only=True, rankdir="LR")

# %% [markdown]
"""
### Backward, played

`viz.animate_backward` runs the real `loss.backward()` and lets you replay it: press ▶ or drag the
slider, and watch the gradient travel from the loss back through each layer until it is added into
the `.grad` of the six parameters.
"""

# %%
viz.animate_backward(loss, names=names)

# %% [markdown]
"""
Backward really ran: every parameter now has a `.grad` of its own shape. For the last layer's bias,
the gradient is the average over the four points of `softmax(logits) - one_hot(target)`.
"""

# %% tags=["nbval-check-output"]
for name, param in model.named_parameters():
    print(f"{name:9} grad shape {tuple(param.grad.shape)}")
print(model[4].bias.grad)
with torch.no_grad():
    one_hot = torch.tensor(np.eye(2, dtype=np.float32)[labels[chosen]])
    print((logits.softmax(dim=1) - one_hot).mean(dim=0))

# %% [markdown]
"""
### The step

`optimizer.step()` changes the parameters in place. On the very first step the momentum is just
the gradient, so every parameter moves by `-0.1 × gradient`:
"""

# %% tags=["nbval-check-output"]
before = model[4].bias.detach().clone()
optimizer.step()
print(before)
print(before - 0.1 * model[4].bias.grad)
print(model[4].bias)

# %% [markdown]
"""
## The training loop

Now the same five parts, 300 times, on all 200 points at once. We keep every loss, to print
some and plot them all.
"""

# %% tags=["nbval-check-output"]
losses = []
for step in range(300):
    optimizer.zero_grad()
    logits = model(X)
    loss = loss_fn(logits, y)
    loss.backward()
    optimizer.step()

    losses.append(loss.item())  # .item(): the plain Python number, no graph attached

# %% [markdown]
"""
Every 30th loss, with three significant digits (enough to see the progress, and the same on every
machine):
"""

# %% tags=["nbval-check-output"]
for step in range(0, len(losses), 30):
    print(f"step {step:3d}   loss {losses[step]:.3g}")
print(f"step {len(losses) - 1:3d}   loss {losses[-1]:.3g}")

# %% [markdown]
"""
### The loss curve

The loss falls fast at first, while the network finds the rough shape of the two moons, then
slowly, as it fits the points near the boundary. It does not reach 0: a few noisy points lie inside
the other moon.
"""

# %%
fig, ax = plt.subplots(figsize=(6, 3.5))
ax.plot(losses, color="tab:purple")
ax.axhline(np.log(2), color="grey", linestyle=":", linewidth=1)
ax.text(len(losses) - 1, np.log(2), "guessing 50/50 (log 2)", color="grey", ha="right", va="bottom")
ax.set_xlabel("training step")
ax.set_ylabel("cross-entropy loss")
ax.set_title("The loss during training")
ax.set_ylim(0, 0.8)
ax.grid(alpha=0.3)
plt.show()

# %% [markdown]
"""
### The decision boundary

To see what the network learned, we ask it about every point of a fine grid covering the plane and
colour each by the probability it gives to class 1 (orange). We only need the numbers, not their
gradients, so the forward runs inside `torch.no_grad()`: no graph is recorded. The black line is
where both classes are equally likely: the network's boundary.
"""

# %%
xs = np.linspace(points[:, 0].min() - 0.5, points[:, 0].max() + 0.5, 200)
ys = np.linspace(points[:, 1].min() - 0.5, points[:, 1].max() + 0.5, 150)
grid_x, grid_y = np.meshgrid(xs, ys)
grid = torch.tensor(np.stack([grid_x.ravel(), grid_y.ravel()], axis=1).astype(np.float32))

with torch.no_grad():
    probability = model(grid).softmax(dim=1)[:, 1].numpy().reshape(grid_x.shape)

from matplotlib.colors import LinearSegmentedColormap

blue_to_orange = LinearSegmentedColormap.from_list("classes", ["tab:blue", "white", "tab:orange"])
fig, ax = plt.subplots(figsize=(7, 4.5))
shading = ax.contourf(grid_x, grid_y, probability, levels=np.linspace(0, 1, 11), cmap=blue_to_orange, alpha=0.5)
ax.contour(grid_x, grid_y, probability, levels=[0.5], colors="black", linewidths=1.5)
plot_points(ax)
fig.colorbar(shading, ax=ax, label="probability of class 1")
ax.set_title("What the network learned")
ax.legend(loc="lower left")
plt.show()

# %% [markdown]
"""
## Accuracy

The prediction for a point is the class with the larger logit: `argmax` over the two columns.
Again no gradients are needed.
"""

# %% tags=["nbval-check-output"]
with torch.no_grad():
    predictions = model(X).argmax(dim=1)
accuracy = (predictions == y).float().mean().item()
print(f"accuracy: {accuracy:.1%}")
print("misclassified points:", np.flatnonzero(predictions.numpy() != labels).tolist())

# %% [markdown]
"""
## Things to try

- Fewer hidden units (`nn.Linear(2, 4)`), or a single hidden layer: does the boundary still bend
  enough?
- `nn.ReLU()` instead of `nn.Tanh()`: the boundary becomes a chain of straight pieces.
- `optim.Adam(model.parameters(), lr=0.01)` instead of SGD, or a learning rate ten times larger or
  smaller: watch the loss curve.
- More `noise` in `make_moons`: the network starts fitting individual points (overfitting).

Every one of these runs unchanged on PyTorch, with `import torch` in place of `import gradlab as torch`.
"""
