# title: Start here
# summary: This page.
# language: en

# %% [markdown]
"""
# gradlab: PyTorch's autograd, made visible

[![Binder](https://mybinder.org/badge_logo.svg)](https://mybinder.org/v2/gh/gradlab/gradlab/HEAD?labpath=notebooks%2F00_start_here.ipynb)

gradlab is a small autograd engine written in numpy with PyTorch's API. `import gradlab as torch`
runs the classic autograd tutorials unchanged and prints exactly what PyTorch prints. On top of
that it can **draw** the graph that autograd records and **play backward** through it one step at
a time, so you can see what every line of a tutorial did.

## How to use these notebooks

- Run a notebook from the top with *Run ▸ Run All Cells*, or step through it with Shift+Enter.
- Notebooks 01 to 05 follow five well-known autograd tutorials (two in English, one in Korean,
  two in Chinese), cell for cell. Pick the one you know, or the one in your language. Each ends
  with the graph drawn and backward played.
- Then *Seeing the graph* tours the drawings and *Watching backward* the player, including the
  corners of autograd that trip people up.
- *The chain rule by hand* (in English, Korean and Chinese) works the tutorial's gradient out on
  paper, checks it against backward, and ends with a quiz: predict each gradient before you see it.
- Change the code and run it again: every drawing and every player is computed from what you ran.

## The notebooks
"""

# %% [markdown]
# {{NOTEBOOK_LIST}}

# %% [markdown]
"""
## Check your setup

The next cell should print a tensor and say that Graphviz's `dot` program was found. If `dot` is
missing, the drawings cannot be rendered: install Graphviz with your system's package manager
(`apt-get install graphviz`, `brew install graphviz`, `conda install graphviz`); on Binder it is
already there.
"""

# %% tags=["nbval-check-output"]
import shutil
import gradlab as torch

print(torch.ones(2) * 2)
print("Graphviz dot found:", shutil.which("dot") is not None)
