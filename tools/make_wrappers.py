"""Write gradlab/_argparse/_wrapper_shapes.py: the argument wrappers' shapes that `import gradlab` uses,
as Python source, so that Python caches their bytecode instead of gradlab compiling them at each import.

    .venv/bin/python tools/make_wrappers.py

Run it after changing _wrapper_source in gradlab/_argparse/wrappers.py, or when
tests/project/test_generated_files.py says the file is out of date.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
import gradlab  # noqa: E402,F401  (importing it makes every wrapper that import uses)
from gradlab._argparse import wrappers  # noqa: E402

PATH = os.path.join(ROOT, "gradlab", "_argparse", "_wrapper_shapes.py")

if __name__ == "__main__":
    with open(PATH, "w", encoding="utf-8") as f:
        f.write(wrappers.shapes_module_text(wrappers._FACTORIES))
    print(f"wrote {PATH}: {len(wrappers._FACTORIES)} shapes")
