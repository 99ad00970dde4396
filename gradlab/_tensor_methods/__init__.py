"""Tensor's methods, by topic: each module writes them as a plain class body, which gradlab/tensor.py
copies onto the core `Tensor` (`_tensor_core.py`); the plain forms of the op table's rows are made from
their `variants` (variants.py). Start from tensor.py: it says which file holds what."""
