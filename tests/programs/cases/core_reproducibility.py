# A "make it reproducible" cell: seeds, deterministic algorithms, one thread, then the same numbers twice.
import random

import numpy as np
import torch


def seed_everything(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    if torch.cuda.is_available():
        torch.cuda.manual_seed_all(seed)
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False
    torch.use_deterministic_algorithms(True)


seed_everything(123)
threads_before = torch.get_num_threads()
torch.set_num_threads(1)
print("threads:", torch.get_num_threads())
print("deterministic:", torch.are_deterministic_algorithms_enabled(), torch.get_deterministic_debug_mode())
print("matmul precision:", torch.get_float32_matmul_precision())
torch.set_float32_matmul_precision("high")
print("matmul precision:", torch.get_float32_matmul_precision())

first = torch.randn(2, 3)
seed_everything(123)
second = torch.randn(2, 3)
print(first)
print(torch.equal(first, second), torch.initial_seed())

generator = torch.Generator().manual_seed(7)
print(torch.rand(3, generator=generator))

torch.use_deterministic_algorithms(False)
torch.set_float32_matmul_precision("highest")
torch.set_num_threads(threads_before)
torch.set_num_threads(0)
