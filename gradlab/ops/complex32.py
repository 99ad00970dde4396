"""complex32 (PyTorch's ComplexHalf) in the op table: which ops run on it, and PyTorch's refusal for the rest.

A complex32 array is a structured numpy array of float16 pairs (see gradlab/_dtype.py). The registry hands
every op with a complex32 operand to `inputs` below, off the path of the other dtypes:
- ops that only move elements (views, indexing, cat, clone...) run their forward on the structured array;
- the few ops with a ComplexHalf kernel in PyTorch (add, sub, mul, neg, abs, sgn, std...) compute in
  complex64 and round each part of the result to float16, as c10::complex<c10::Half> does;
- an op whose operands promote past complex32 (complex32 + float32 is complex64) is an ordinary complex op;
- any other op raises PyTorch's error: most often '"<kernel>" not implemented for 'ComplexHalf'', whose
  kernel name is PyTorch's (probed from PyTorch 2.13 for each op of the table).
"""
import numpy as np

from .._dtype import C32, as_c64, c32_scalar, c32_to_c64, cast, result_np_dtype  # noqa: F401 (as_c64: the registry's)

_C64 = np.dtype(np.complex64)

# Ops that move, select or copy elements without arithmetic: their forward runs on the structured array
MOVES = frozenset({
    "alias", "alias_copy", "as_strided", "as_strided_copy", "as_strided_view", "block_diag", "cat",
    "clone", "copy", "diag_embed", "diagonal", "diagonal_copy", "expand", "expand_copy", "index", "index_select",
    "index_add", "index_copy", "masked_select", "narrow_copy", "permute", "permute_copy", "repeat", "reshape_alias",
    "roll", "select", "select_copy", "slice", "slice_copy", "split", "split_copy", "split_with_sizes",
    "split_with_sizes_copy", "squeeze", "squeeze_copy", "squeeze_dim", "squeeze_dim_copy", "squeeze_dims",
    "squeeze_dims_copy", "stack", "t", "t_copy", "transpose", "transpose_copy", "tril", "triu", "unbind",
    "unbind_copy", "unfold", "unfold_copy", "unsafe_split", "unsafe_split_with_sizes", "unsafe_view", "unsqueeze",
    "unsqueeze_copy", "view", "view_copy", "view_as_real", "view_as_real_copy", "where", "to_dtype",
    "constant_pad_nd", "slice_scatter", "select_scatter", "diagonal_scatter", "as_strided_scatter",
})

# Ops with a ComplexHalf kernel: computed in complex64, a complex result rounded to complex32 and a real one
# (abs, std) to float16 (the registry's _as_array, given complex32 for the result's dtype)
COMPUTES = frozenset({
    "add", "sub", "sub_scalar", "rsub", "rsub_tensor", "mul", "mul_scalar", "neg", "sgn", "conj", "_neg_view", "conj_physical",
    "addcmul", "eq_scalar_inplace", "eq_tensor_inplace", "ne_scalar_inplace", "ne_tensor_inplace",
    "conj_physical_inplace", "masked_fill", "masked_fill_tensor", "fill", "fill_tensor", "index_fill", "complex", "abs", "std",
    "var", "norm", "norm_p", "norm_p_all", "dist", "std_mean", "var_mean",
})

# PyTorch's refusals: a kernel name ('"<name>" not implemented for 'ComplexHalf''), or (exception, message)
REFUSED = {
    "acos": 'acos_vml_cpu',
    "acosh": 'acosh_cpu',
    "addmm": 'addmm_impl_cpu_',
    "amax": 'max_values_cpu',
    "amin": 'min_values_cpu',
    "aminmax": 'aminmax_cpu',
    "angle": 'angle_cpu',
    "asin": 'asin_vml_cpu',
    "asinh": 'asinh_cpu',
    "atan": 'atan_vml_cpu',
    "atan2": 'atan2_cpu',
    "atanh": 'atanh_cpu',
    "cauchy_": (RuntimeError, 'Cauchy distribution is a continuous probability distribution. dtype must be a floating point but you specified c10::complex<c10::Half>'),
    "cdist": (RuntimeError, 'cdist only supports floating-point dtypes, X1 got: ComplexHalf'),
    "ceil": (NotImplementedError, 'ceil is not supported for complex inputs'),
    "celu": 'elu_cpu',
    "cholesky": 'cholesky_cpu',
    "cholesky_inverse": 'cholesky_inverse_out_cpu',
    "clamp_max_tensor": 'minimum_cpu',
    "clamp_min_tensor": 'maximum_cpu',
    "clamp_tensor": (NotImplementedError, 'clamp is not supported for complex types'),
    "copysign": 'copysign_cpu',
    "cos": 'cos_vml_cpu',
    "cosh": 'cosh_cpu',
    "cummax": 'cummax_cpu',
    "cummin": 'cummin_cpu',
    "cumprod": 'cumprod_out_cpu',
    "cumsum": 'cumsum_out_cpu',
    "deg2rad": (RuntimeError, 'deg2rad is not supported for complex tensors.'),
    "det": 'lu_cpu',
    "digamma": 'digamma',
    "div_rounding": 'div_floor_cpu',
    "elu": 'elu_cpu',
    "erf": 'erf_vml_cpu',
    "erfc": 'erfc_vml_cpu',
    "erfinv": 'erfinv_vml_cpu',
    "exp": 'exp_vml_cpu',
    "exp2": 'exp2',
    "expm1": 'expm1_vml_cpu',
    "exponential_": (RuntimeError, 'Exponential distribution is a continuous probability distribution. dtype must be a floating point but you specified ComplexHalf'),
    "floor": (NotImplementedError, 'floor is not supported for complex inputs'),
    "fmax": (RuntimeError, 'fmax not implemented for complex tensors.'),
    "fmin": (RuntimeError, 'fmin not implemented for complex tensors.'),
    "fmod_tensor": 'fmod_cpu',
    "frac": 'frac_cpu',
    "frexp": (RuntimeError, 'torch.frexp() only supports floating-point dtypes'),
    "gather": 'scatter_gather_tensor_cpu',
    "gelu": 'GeluKernelImpl',
    "glu": 'glu_cpu',
    "hardshrink": 'hardshrink_cpu',
    "hardsigmoid": 'hardsigmoid_cpu',
    "hardswish": 'hardswish_cpu',
    "hardtanh": (NotImplementedError, 'clamp is not supported for complex types'),
    "hypot": 'hypot_cpu',
    "i0": 'i0_vml_cpu',
    "igamma": 'igamma_cpu',
    "igammac": 'igammac_cpu',
    "inverse": (RuntimeError, 'linalg.inv: Low precision dtypes not supported. Got ComplexHalf'),
    "kthvalue": 'kthvalue_cpu',
    "ldexp": 'pow',
    "leaky_relu": 'leaky_relu_cpu',
    "lerp_tensor": 'lerp_kernel_tensor',
    "lgamma": 'lgamma_vml_cpu',
    "log": 'log_vml_cpu',
    "log10": 'log10_vml_cpu',
    "log1p": 'log1p_vml_cpu',
    "log2": 'log2_vml_cpu',
    "log_normal_": 'log_normal_cpu',
    "log_softmax": 'log_softmax_lastdim_kernel_impl',
    "logaddexp": 'logaddexp_cpu',
    "logaddexp2": 'logaddexp2_cpu',
    "logcumsumexp": 'logcumsumexp_out_cpu',
    "logit": 'logit_cpu',
    "logsumexp": 'exp_vml_cpu',
    "masked_scatter": 'masked_scatter',
    "max_all": 'max_all',
    "max_dim": (RuntimeError, 'max(): does not support complex input'),
    "maximum": (RuntimeError, 'maximum not implemented for complex tensors.'),
    "mean": 'sum_cpu',
    "mean_dim": 'sum_cpu',
    "median": 'median_cpu',
    "median_dim": 'median_out',
    "min_all": 'min_all',
    "min_dim": (RuntimeError, 'min(): does not support complex input'),
    "minimum": (RuntimeError, 'minimum not implemented for complex tensors.'),
    "mish": 'mish_cpu',
    "mm": 'addmm_impl_cpu_',
    "mode": 'mode_cpu',
    "mv": 'addmv_impl_cpu',
    "nan_to_num": 'nan_to_num',
    "nanmedian": 'median_cpu',
    "nanmedian_dim": 'median_out',
    "nansum": (RuntimeError, 'nansum on CPU does not support complex inputs'),
    "nextafter": 'nextafter_cpu',
    "pdist": (RuntimeError, 'pdist only supports floating-point dtypes'),
    "polygamma": 'trigamma',
    "pow_scalar": 'pow',
    "prelu": 'prelu_cpu',
    "prod": 'prod_out_cpu',
    "prod_dim": 'prod_out_cpu',
    "put_positions": 'take_put_cpu',
    "rad2deg": (RuntimeError, 'rad2deg is not supported for complex tensors.'),
    "reciprocal": 'reciprocal_cpu',
    "relu": (NotImplementedError, 'clamp is not supported for complex types'),
    "remainder_tensor": 'remainder_cpu',
    "rot90": 'flip_cpu',
    "round": 'round_vml_cpu',
    "round_decimals": 'round_cpu',
    "rpow": 'pow',
    "rsqrt": 'rsqrt_cpu',
    "scatter": 'scatter_gather_tensor_cpu',
    "scatter_add": 'scatter_gather_tensor_cpu',
    "sigmoid": 'sigmoid_cpu',
    "sign": (NotImplementedError, 'Unlike NumPy, torch.sign is not intended to support complex numbers. Please use torch.sgn instead.'),
    "silu": 'silu_cpu',
    "sin": 'sin_vml_cpu',
    "sinc": 'sinc_cpu',
    "sinh": 'sinh_cpu',
    "slogdet": (RuntimeError, 'linalg.slogdet: Low precision dtypes not supported. Got ComplexHalf'),
    "softmax": 'softmax_lastdim_kernel_impl',      # (over the last dim; softmax_kernel_impl over another)
    "softplus": 'softplus_cpu',
    "softshrink": 'softshrink_check',
    "sort": (RuntimeError, ' Sort does not support complex dtypes on CPU'),
    "sort_stable": (RuntimeError, ' Sort does not support complex dtypes on CPU'),
    "special_entr": 'entr_cpu',
    "special_erfcx": 'erfcx_cpu',
    "special_i0e": 'i0e_cpu',
    "special_i1": 'i1_cpu',
    "special_i1e": 'i1e_cpu',
    "special_log_ndtr": 'log_ndtr_cpu',
    "special_ndtri": 'ndtri_cpu',
    "special_xlog1py": 'xlog1py_cpu',
    "special_zeta": 'zeta_cpu',
    "sqrt": 'sqrt_vml_cpu',
    "sum": 'sum_cpu',
    "sum_dim": 'sum_cpu',
    "svd": 'linalg_svd_cpu',
    "take": 'take_cpu',
    "tan": 'tan_vml_cpu',
    "tanh": 'tanh_vml_cpu',
    "threshold": 'threshold_cpu',
    "topk": (RuntimeError, ' topk does not support complex dtypes on CPU'),
    "trace": 'trace',
    "trunc": (NotImplementedError, 'trunc is not supported for complex inputs'),
    "xlogy": 'xlogy_cpu',
    "div": "div_cpu", "addcdiv": "addcdiv_cpu_out", "lerp": "lerp_kernel_scalar", "pow": "pow", "dot": "dot",
    "vdot": "vdot", "bmm": "bmm", "mv": "addmv_impl_cpu", "flip": "flip_cpu", "fmod": "fmod_cpu",
    "remainder": "remainder_cpu", "copysign_scalar": "copysign_cpu", "polar": "polar_cpu",
    "xlogy_scalar_other": "xlogy_cpu", "mvlgamma": "arange_cpu",
    "clamp": (NotImplementedError, "clamp is not supported for complex types"),
    "clamp_min": (NotImplementedError, "clamp is not supported for complex types"),
    "clamp_max": (NotImplementedError, "clamp is not supported for complex types"),
}


def _refusal(key, params, ndim):
    what = REFUSED.get(key, key + "_cpu")
    if key == "div_rounding" and params:            # (the kernel of the rounding mode: div_trunc_cpu, div_floor_cpu)
        what = f"div_{params.get('rounding_mode')}_cpu"
    elif key in ("softmax", "log_softmax") and params and params.get("dim") not in (-1, ndim - 1, None):
        what = key + "_kernel_impl"                 # (over a dim that is not the last)
    if type(what) is str:
        return NotImplementedError(f"\"{what}\" not implemented for 'ComplexHalf'")
    return what[0](what[1])


def inputs(op, args, arrays, requires, Tensor, params):
    """The registry's _inputs for an op with a complex32 operand: (arrays, result dtype, requires). A number
    among the parameters (rsub's other, fill's value) is rounded to complex32 here, in `params`."""
    key = op.key
    if op.promote:
        weak = [_CATEGORY[type(a)] for a in args if type(a) in _CATEGORY]
        dtype = result_np_dtype([(a._data.ndim, a._data.dtype) for a in args if isinstance(a, Tensor)], weak)
    else:
        dtype = C32
    if dtype != C32:
        # the operands promote past complex32 (complex32 * float32 is complex64): an ordinary complex op
        arrays = [cast(a, dtype) if isinstance(a, np.ndarray) and a.dtype != dtype else a for a in arrays]
        return arrays, (dtype if op.cast_result else None), requires
    if key in MOVES:
        if op.promote:      # (a float16, integer or number operand of cat or where: converted to complex32 first)
            arrays = [cast(a, C32) if isinstance(a, np.ndarray) and a.dtype.kind in "biufc" else
                      c32_scalar(a) if type(a) in _CATEGORY else a for a in arrays]
        return arrays, None, requires
    if key in ("pow_scalar", "rpow") and params:
        # PyTorch's shortcuts before the pow kernel: x ** 1 copies, x ** 0 and 1 ** x fill ones, x ** 0.5, ** -1 and
        # ** -0.5 are sqrt, reciprocal and rsqrt (no ComplexHalf kernel either)
        number = params.get("exponent" if key == "pow_scalar" else "base")
        if key == "rpow" and number == 1 or key == "pow_scalar" and number in (0, 1):
            key = "mul"             # (computed exactly: the values themselves, or ones)
        elif key == "pow_scalar" and number in _POW_KERNELS:
            raise NotImplementedError(f"\"{_POW_KERNELS[number]}\" not implemented for 'ComplexHalf'")
    if key in COMPUTES:
        # every operand as complex32 values first (a Python number or a float64 tensor rounded to halves, as
        # PyTorch converts its operands to the common dtype), then computed in complex64
        arrays = [c32_to_c64(a if a.dtype.kind == "V" else cast(a, C32)) if isinstance(a, np.ndarray) else
                  _half_rounded(a) if type(a) in _CATEGORY else a for a in arrays]
        for name in ("other", "value"):
            if params and type(params.get(name)) in _CATEGORY:
                params[name] = _half_rounded(params[name])
        return arrays, C32, requires
    raise _refusal(key, params, max((a._data.ndim for a in args if isinstance(a, Tensor)), default=0))


_CATEGORY = {bool: 0, int: 1, float: 2, complex: 3}
_POW_KERNELS = {0.5: "sqrt_vml_cpu", -1: "reciprocal_cpu", -0.5: "rsqrt_cpu"}


def _half_rounded(number):
    """A Python number as complex32 holds it: a complex one's parts, or a real one, rounded to float16 through
    float (kept real: a real number multiplies both parts alike)."""
    if type(number) is complex:
        return complex(c32_to_c64(c32_scalar(number)))
    if type(number) is float:
        return float(np.float16(np.float32(number)))
    return number
