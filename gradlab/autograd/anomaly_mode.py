"""Autograd anomaly mode: torch.autograd.detect_anomaly and set_detect_anomaly.

While it is on (with check_nan), every node's gradients are looked at as the engine hands them
on (an observer of autograd/events.py, so a plain backward pays nothing when it is off): a node
that returns nan stops backward with PyTorch's error, after PyTorch's "Error detected in ..."
warning. That warning shows the forward call's Python stack when the node recorded one
(`record_forward_stack`, PyTorch's metadata["traceback_"]), else it says none is available.
"""
import os
import traceback

import numpy as np

from . import events
from .. import _warnings
from .._argparse.wrappers import _vetter

__all__ = ["detect_anomaly", "set_detect_anomaly"]

_state = {"enabled": False, "check_nan": True}
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))      # gradlab/


def is_anomaly_enabled():
    return _state["enabled"]


def is_anomaly_check_nan_enabled():
    return _state["check_nan"]


# torch.set_anomaly_enabled is a C function: its parser refuses set_detect_anomaly('yes')
_vet_set = _vetter(("set_anomaly_enabled(bool enabled, bool check_nan=True)",))


def set_anomaly_enabled(enabled, check_nan=True):
    _vet_set((enabled, check_nan), {})
    _state["enabled"], _state["check_nan"] = bool(enabled), bool(check_nan)
    watching = _check_event in events._observers
    if _state["enabled"] and _state["check_nan"] and not watching:
        events._observers.append(_check_event)
    elif watching and not (_state["enabled"] and _state["check_nan"]):
        events._observers.remove(_check_event)


def record_forward_stack(node):
    """Keep, on a node made while anomaly mode is on, the Python stack of the forward call that
    made it (without gradlab's own frames), as PyTorch keeps it in metadata["traceback_"]."""
    frames = [f for f in traceback.extract_stack()[:-1] if not os.path.abspath(f.filename).startswith(_PACKAGE)]
    node.metadata["traceback_"] = "".join(traceback.format_list(frames))


def warn_error_in(node):
    """PyTorch's warning when a node fails in anomaly mode."""
    stack = getattr(node, "_metadata", {}).get("traceback_")
    if stack is None:
        text = ("No forward pass information available. Enable detect anomaly during forward pass for more "
                "information. (Triggered internally at "
                "/__w/pytorch/pytorch/torch/csrc/autograd/python_anomaly_mode.cpp:100.)")
    else:
        text = ("Traceback of forward call that caused the error:\n" + stack + " (Triggered internally at "
                "/__w/pytorch/pytorch/torch/csrc/autograd/python_anomaly_mode.cpp:122.)")
    _warnings.warn(f"Error detected in {node.name()}. {text}", UserWarning)


def _check_event(event):
    if type(event) is not events.NodeFinished:
        return
    for i, g in enumerate(event.grad_inputs):
        if g is not None and np.isnan(g).any():
            warn_error_in(event.node)
            raise RuntimeError(f"Function '{event.node.name()}' returned nan values in its {i}th output.")


class detect_anomaly:
    """Context manager that turns anomaly detection on (and warns that it is slow)."""

    def __init__(self, check_nan=True):
        self.prev = is_anomaly_enabled()
        self.check_nan = check_nan
        self.prev_check_nan = is_anomaly_check_nan_enabled()
        _warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime and should only be "
                       "enabled for debugging.")

    def __enter__(self):
        set_anomaly_enabled(True, self.check_nan)

    def __exit__(self, *args):
        set_anomaly_enabled(self.prev, self.prev_check_nan)


class set_detect_anomaly:
    """Turns anomaly detection on or off, as a call or as a context manager (restoring on exit)."""

    def __init__(self, mode, check_nan=True):
        self.prev = is_anomaly_enabled()
        self.prev_check_nan = is_anomaly_check_nan_enabled()
        set_anomaly_enabled(mode, check_nan)

    def __enter__(self):
        pass

    def __exit__(self, *args):
        set_anomaly_enabled(self.prev, self.prev_check_nan)


detect_anomaly.__module__ = set_detect_anomaly.__module__ = "gradlab.autograd.anomaly_mode"
