"""torch.nn.utils: gradient clipping, parameter vectors, padded and packed sequences (rnn)."""
from . import clip_grad, convert_parameters, rnn
from .clip_grad import (clip_grad_norm, clip_grad_norm_, clip_grad_value_, clip_grads_with_norm_,  # noqa: F401
                        get_total_norm)
from .convert_parameters import parameters_to_vector, vector_to_parameters  # noqa: F401

__all__ = clip_grad.__all__ + convert_parameters.__all__ + ["rnn"]
