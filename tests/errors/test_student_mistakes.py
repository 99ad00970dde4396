"""Mistakes a student makes in a first session get PyTorch's exception type and message, word for word.

Each snippet runs once with `torch` bound to gradlab and once with real PyTorch; the first line of
the error (or "OK") must be the same.
"""
import pytest

import gradlab

torch_module = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

SNIPPETS = [
    "torch.ones(2,3).sum(dim=5)", "torch.ones(3).view(2,2)", "torch.tensor([1,2,3])[3]", "torch.ones(2,2).t().view(4)",
    "torch.ones(3, requires_grad=True).numpy()", "torch.ones(3).item()",
    "torch.tensor([1.,2.]) @ torch.tensor([1.,2.,3.])", "torch.zeros(2,2).backward()",
    "x = torch.ones(2, requires_grad=True); y = x * 2; y.backward()", "torch.tensor([[1,2],[3]])",
    "torch.ones(2,3).mean(dtype=torch.int64)", "torch.ones(2, dtype=torch.int64).mean()", "torch.ones(2).reshape(3)",
    "torch.cat([torch.ones(2), torch.ones(2,2)])", "torch.ones(2,3).transpose(0,2)", "torch.ones(2).expand(3,3)",
    "torch.tensor(3.)[0]", "len(torch.tensor(2.))", "torch.ones(2, requires_grad=True).add_(1)",
    "torch.randn(2,3).max(dim=2)", "torch.ones(2,3).squeeze(3)", "torch.arange(0, 10, -1)", "torch.ones(2).unsqueeze(3)",
    "torch.ones(2,2).permute(0)", "torch.ones(2,2).permute(0,0)",
    "torch.tensor([1.,2.], requires_grad=True).grad.zero_()", "torch.ones(2,3)[:, 5]",
    "torch.ones(2).sum().backward(torch.ones(2))", "torch.ones(3).split(0)", "torch.ones(4).chunk(0)",
    "float(torch.ones(2))", "torch.ones(2,2).mm(torch.ones(2))", "torch.ones(2, 3).flatten(2)",
    "torch.full((2,), 'a')", "torch.zeros(-1)", "torch.ones(-1)", "torch.rand(-1)", "torch.randn(2, -1)",
    "torch.randint(0, 3, (-1,))", "torch.eye(-2)", "torch.eye(2, -1)", "torch.linspace(0, 1, -1)",
    "x = torch.ones(2, requires_grad=True); y = (x * x).sum(); y.backward(); y.backward()",
    "x = torch.ones(3, requires_grad=True); y = x.exp(); y.add_(1); y.sum().backward()",
    "torch.ones(3) + torch.ones(4)", "torch.ones(2, 3) @ torch.ones(2, 3)", "bool(torch.ones(2))",
    # numpy on the left: numpy scalars give Tensors (float32, with a graph), numpy arrays are refused
    "import numpy as np; x = torch.ones(2, requires_grad=True); y = np.float64(2) * x; "
    "assert type(y) is type(x) and y.dtype == torch.float32 and y.grad_fn is not None",
    "import numpy as np; y = np.sqrt(2.0) - torch.ones(2); assert type(y) is torch.Tensor and y.dtype == torch.float32",
    "import numpy as np; y = np.float32(2) / torch.ones(2); assert type(y) is torch.Tensor",
    "import numpy as np; y = np.float64(2) ** torch.ones(2); assert type(y) is torch.Tensor and y.dtype == torch.float32",
    "import numpy as np; np.ones(3) * torch.ones(3)", "import numpy as np; np.ones(3) - torch.ones(3)",
    "import numpy as np; np.ones(3) + torch.ones(3)", "import numpy as np; np.ones((3, 3)) @ torch.ones(3)",
    "import numpy as np; np.ones(3) * torch.ones(3, requires_grad=True)",
    "import numpy as np; np.ones(3) ** torch.ones(3)", "import numpy as np; np.ones(3) // torch.ones(3)",
    "import numpy as np; y = np.ones(3) / torch.ones(3); assert y.dtype == torch.float64",
    "import numpy as np; y = np.ones(3) == torch.ones(3); assert y.dtype == torch.bool",
]


def _first_line_of_error(module, code):
    namespace = {"torch": module}
    try:
        exec(code, namespace)
        return "OK"
    except Exception as error:   # noqa: BLE001 - the point is to compare whatever is raised
        return f"{type(error).__name__}: {str(error).splitlines()[0]}"


@pytest.mark.parametrize("code", SNIPPETS)
def test_same_error_as_pytorch(code):
    assert _first_line_of_error(gradlab, code) == _first_line_of_error(torch_module, code)
