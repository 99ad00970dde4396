"""torch.backends.openmp: PyTorch's CPU build has OpenMP; gradlab answers as that build does."""


def is_available():
    return True
