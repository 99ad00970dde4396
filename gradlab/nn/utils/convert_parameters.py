"""torch/nn/utils/convert_parameters.py: all parameters as one flat vector, and back."""
from ...tensor import Tensor, _type_name, cat

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def parameters_to_vector(parameters):
    """torch.cat of every parameter viewed as 1-d (CatBackward0)."""
    return cat([param.view(-1) for param in parameters])


def vector_to_parameters(vec, parameters):
    """Slice vec into the parameters' shapes and make those slices their data."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {_type_name(vec)}")
    pointer = 0
    for param in parameters:
        num_param = param.numel()
        param.data = vec[pointer:pointer + num_param].view_as(param).data
        pointer += num_param
