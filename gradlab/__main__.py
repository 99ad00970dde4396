"""`python -m gradlab program.py [args]`: run a PyTorch program unchanged, with gradlab as `torch`.

`import torch`, `import torch.nn as nn` and `from torch.utils.data import DataLoader` in the program
(and in the modules it imports) give gradlab's modules. Nothing is installed: the alias lives only in
this process.
"""
import runpy
import sys

from ._alias import alias_torch


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: python -m gradlab program.py [args...]\n\nRuns a PyTorch program with gradlab as torch.")
        return 0 if argv else 2
    alias_torch()
    sys.argv = list(argv)
    runpy.run_path(argv[0], run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
