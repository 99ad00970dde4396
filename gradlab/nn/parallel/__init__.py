"""torch.nn.parallel as PyTorch's CPU-only build answers it: DataParallel wraps the module and calls it (no
devices to spread over), the multi-device helpers fail with PyTorch's errors."""
from ...tensor import Tensor
from .data_parallel import DataParallel, data_parallel

__all__ = ["DataParallel", "data_parallel", "gather", "parallel_apply", "replicate", "scatter"]


def _has_tensor(obj):
    if isinstance(obj, Tensor):
        return True
    if isinstance(obj, (list, tuple)):
        return any(_has_tensor(o) for o in obj)
    if isinstance(obj, dict):
        return any(_has_tensor(o) for o in obj.values())
    return False


def replicate(network, devices, detach=False):
    if not devices:
        return []
    raise AssertionError("Broadcast function not implemented for CPU tensors")


def scatter(inputs, target_gpus, dim=0):
    if _has_tensor(inputs):
        raise AttributeError("module 'torch._C' has no attribute '_scatter'")
    return [inputs for _ in target_gpus] if isinstance(inputs, tuple) else [inputs for _ in target_gpus]


def gather(outputs, target_device, dim=0):
    if _has_tensor(outputs):
        raise AssertionError("Gather function not implemented for CPU tensors")
    return outputs[0] if outputs else outputs


def parallel_apply(modules, inputs, kwargs_tup=None, devices=None):
    raise RuntimeError("Cannot access accelerator device when none is available.")
