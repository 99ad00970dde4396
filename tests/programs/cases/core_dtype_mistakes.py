# Integer and float mix-ups a beginner runs into, each caught and printed.
import torch
from torch import nn

ints = torch.tensor([1, 2, 3])
floats = torch.tensor([0.5, 1.5, 2.5])
print(ints.dtype, floats.dtype, (ints + floats).dtype, (ints * 2).dtype, (ints / 2).dtype, (ints // 2).dtype)
print("true division of ints:", ints / 2, "floor:", ints // 2)
print("int tensor with a Python float:", ints + 0.5)
print("mean of floats:", floats.mean())


def attempt(title, fn):
    try:
        result = fn()
        print(f"{title}: ok ->", result)
    except Exception as e:
        print(f"{title}: {type(e).__name__}: {e}")


attempt("mean of ints", lambda: ints.mean())
attempt("requires_grad on ints", lambda: torch.tensor([1, 2], requires_grad=True))
attempt("requires_grad_ on ints", lambda: ints.clone().requires_grad_())
attempt("in-place float into int", lambda: ints.clone().add_(0.5))
attempt("in-place int into float", lambda: floats.clone().add_(1))
attempt("Linear on ints", lambda: nn.Linear(3, 1)(ints))
attempt("Linear on doubles", lambda: nn.Linear(3, 1)(floats.double()))
attempt("matmul int @ float", lambda: ints @ floats)
attempt("cross_entropy float targets", lambda: nn.functional.cross_entropy(torch.randn(2, 3), torch.tensor([0.0, 2.0])))
attempt("cross_entropy int32 targets", lambda: nn.functional.cross_entropy(torch.zeros(2, 3), torch.tensor([0, 2], dtype=torch.int32)))
attempt("nll_loss wrong class", lambda: nn.functional.nll_loss(torch.zeros(2, 3), torch.tensor([0, 3])))
attempt("index with floats", lambda: floats[torch.tensor([0.0, 1.0])])
attempt("index with a bool list", lambda: floats[[True, False, True]])
attempt("item of a vector", lambda: floats.item())
attempt("int() of a vector", lambda: int(floats))
attempt("float() of a 1-element", lambda: float(torch.tensor([2])))
attempt("sqrt of ints", lambda: torch.sqrt(ints))
attempt("exp of a long", lambda: torch.exp(torch.tensor(1)))
attempt("pow negative int", lambda: ints ** -1)
attempt("float ** negative int", lambda: floats ** -1)
attempt("arange float step", lambda: torch.arange(0, 1, 0.25))
attempt("zeros with a float size", lambda: torch.zeros(2.0))
attempt("randint high float", lambda: torch.randint(0, 5.5, (2,)).dtype)
attempt("tensor of mixed list", lambda: torch.tensor([1, 2.5, True]))
attempt("tensor of ragged list", lambda: torch.tensor([[1, 2], [3]]))
attempt("bool arithmetic", lambda: torch.tensor([True, False]) + torch.tensor([True, True]))
attempt("bool minus", lambda: torch.tensor([True]) - torch.tensor([True]))
attempt("uint8 overflow", lambda: torch.tensor([250], dtype=torch.uint8) + 10)
attempt("int8 from 200", lambda: torch.tensor([200]).to(torch.int8))
attempt("division by int zero", lambda: torch.tensor([1]) // 0)
attempt("float division by zero", lambda: torch.tensor([1.0, -1.0, 0.0]) / 0)
attempt("backward on int result", lambda: (floats.requires_grad_() * 2).long().sum().backward())
attempt("grad of float then to int", lambda: torch.tensor(2.0, requires_grad=True).int().requires_grad)
attempt("comparison dtype", lambda: (ints > 1).dtype)
attempt("sum of bools", lambda: (ints > 1).sum())
attempt("float16 add float32", lambda: (torch.ones(2, dtype=torch.float16) + torch.ones(2)).dtype)
attempt("0-d double with float", lambda: (torch.tensor(1.0, dtype=torch.float64) + floats).dtype)
