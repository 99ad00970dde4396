"""Ops: conv (rows of the op table; see registry.py)."""
import numpy as np  # noqa: F401

from . import dual  # noqa: F401
from .registry import op  # noqa: F401
