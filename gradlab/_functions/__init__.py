"""`gradlab.<fn>` forms of Tensor's methods, by topic (PyTorch's torch.<fn>): gradlab/__init__.py imports
each file's `__all__`. The forms of the op table's rows are made from their `variants` (variants.py)."""
