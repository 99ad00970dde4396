"""Tensor's methods, by topic: each module writes them as a plain class body, which gradlab/tensor.py
copies onto the core `Tensor` (`_tensor_core.py`). Start from tensor.py: it says which file holds what."""
