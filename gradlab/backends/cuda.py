"""torch.backends.cuda: absent here; the matmul flags a training script sets are kept and ignored."""


def is_built():
    return False


class cuBLASModule:
    """torch.backends.cuda.matmul: its flags read and set as PyTorch's (they change nothing here)."""

    def __init__(self):
        object.__setattr__(self, "_flags", {"allow_tf32": False, "allow_fp16_reduced_precision_reduction": True,
                                            "allow_bf16_reduced_precision_reduction": True,
                                            "allow_fp16_accumulation": False})

    def __getattr__(self, name):
        flags = object.__getattribute__(self, "_flags")
        if name in flags:
            return flags[name]
        raise AttributeError(f"Unknown attribute {name}")

    def __setattr__(self, name, value):
        if name not in self._flags:
            raise AttributeError(f"Unknown attribute {name}")
        self._flags[name] = value


matmul = cuBLASModule()
