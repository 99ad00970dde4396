"""Write gradlab/_argparse/_wrapper_shapes.py: the argument wrappers' shapes that gradlab's modules use,
as Python source, so that Python caches their bytecode instead of gradlab compiling them at each import.

    .venv/bin/python tools/make_wrappers.py          (writes the file)
    .venv/bin/python tools/make_wrappers.py --keys   (prints the shapes, for tests/project/test_generated_files.py)

Run it after changing _wrapper_source in gradlab/_argparse/wrappers.py, or when
tests/project/test_generated_files.py says the file is out of date.
"""
import importlib
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
import gradlab  # noqa: E402  (importing it makes the wrappers that import uses)
from gradlab._argparse import wrappers  # noqa: E402

PATH = os.path.join(ROOT, "gradlab", "_argparse", "_wrapper_shapes.py")


def used_shapes():
    """The shapes of every wrapper gradlab makes: at import, and as the modules loaded later load."""
    for name in gradlab._LAZY_FUNCTIONS:
        getattr(gradlab, name)
    for module in ("nn.functional", "nn.modules", "optim", "distributions", "utils"):
        importlib.import_module(f"gradlab.{module}")
    return sorted(wrappers._FACTORIES)


if __name__ == "__main__":
    keys = used_shapes()
    if sys.argv[1:] == ["--keys"]:
        print(keys)
    else:
        with open(PATH, "w", encoding="utf-8") as f:
            f.write(wrappers.shapes_module_text(keys))
        print(f"wrote {PATH}: {len(keys)} shapes")
