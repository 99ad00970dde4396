"""`gradlab.<fn>` forms of Tensor's methods, by topic (PyTorch's torch.<fn>): gradlab/__init__.py imports
each file's `__all__`."""
