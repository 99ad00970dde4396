"""nn.functional, by topic: the files of this package are imported by gradlab/nn/functional.py."""
