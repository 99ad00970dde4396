"""torch.backends.cudnn: absent here; the flags a training script sets are kept and ignored, as in
PyTorch without CUDA."""
enabled = True
benchmark = False
deterministic = False
allow_tf32 = True


def is_available():
    return False


def version():
    return None


def is_acceptable(tensor):
    return False
