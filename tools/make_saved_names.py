"""Write gradlab/autograd/_saved_names.py: the `_saved_*` and `_raw_saved_*` attributes of each of PyTorch's grad_fn
classes that gradlab's sources name.

    .venv/bin/python tools/make_saved_names.py

Run it with the PyTorch that gradlab follows installed (gradlab never imports it). PyTorch generates one getter per
field a backward class keeps, so each class has a fixed set of these names: `dir(y.grad_fn)` lists exactly them, and
reading any other `_saved_` name raises AttributeError.
"""
import os
import pathlib
import re

import torch

ROOT = pathlib.Path(__file__).resolve().parent.parent
classes = torch._C._functions
words = set()
for path in (ROOT / "gradlab").rglob("*.py"):
    if path.name != "_saved_names.py":
        words |= set(re.findall(r"[A-Za-z0-9_]+", path.read_text()))
# (a class made from a name built at run time: the op table's "Backward0"-style names are spelled out in full)
table = {}
for name in sorted(dir(classes)):
    cls = getattr(classes, name)
    if isinstance(cls, type) and name in words:
        table[name] = " ".join(sorted(a for a in dir(cls) if a.startswith(("_saved_", "_raw_saved_"))))
lines = ['"""Each PyTorch grad_fn class\'s `_saved_*` / `_raw_saved_*` attributes (tools/make_saved_names.py wrote this',
         'file from PyTorch %s; do not edit)."""' % torch.__version__.split("+")[0], "", "SAVED_NAMES = {"]
lines += [f"    {name!r}: {names!r}," for name, names in table.items()]
lines += ["}", ""]
(ROOT / "gradlab" / "autograd" / "_saved_names.py").write_text("\n".join(lines))
print(len(table), "classes")
