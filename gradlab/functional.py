"""torch.functional: the functions PyTorch defines in Python there, re-exported from gradlab (a tutorial
imports it as `import torch.functional as F`)."""
from . import (Tensor, broadcast_shapes, broadcast_tensors, cdist, einsum, linalg, meshgrid, norm, split, tensordot,
               unique, unique_consecutive)
from . import bool as bool_, float16, nn, ones, view_as_complex, view_as_real, zeros
from . import _signatures
from ._argparse.wrappers import _vetter
from ._tensor_core import _wrap_dim
from ._tensor_methods._common import _warn_once
from .ops import OPS


def _constant_pad_nd(input, pad, value=0):
    """The constant_pad_nd row itself (torch.constant_pad_nd is a lazy name of gradlab, not yet bound when this
    file is imported, and its checks are in nn's layer, which `import gradlab` leaves for later)."""
    return OPS["constant_pad_nd"](input, pad=tuple(pad), value=value)


__all__ = ["broadcast_shapes", "broadcast_tensors", "cdist", "einsum", "meshgrid", "norm", "split", "tensordot",
           "unique", "unique_consecutive", "chain_matmul", "stft"]


_CHAIN_MATMUL_WARNING = (
    "torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use torch.linalg.multi_dot "
    "instead, which accepts a list of two or more tensors rather than multiple parameters. (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/LinearAlgebra.cpp:1102.)")


def chain_matmul(*matrices, out=None):
    """PyTorch's deprecated chain_matmul: warned once; every matrix 2-d; one matrix is cloned, more are
    linalg.multi_dot's product."""
    for i, t in enumerate(matrices):         # (PyTorch's argument parser, before the C++ function warns)
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(t).__name__}")
    _warn_once(_CHAIN_MATMUL_WARNING)
    for t in matrices:
        if t._data.ndim != 2:
            raise RuntimeError(f"Tensor dimension is {t._data.ndim}, expected 2 instead.")
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    result = matrices[0].clone() if len(matrices) == 1 else linalg.multi_dot(list(matrices))
    if out is not None:
        out.copy_(result)
        return out
    return result


# --- the short-time Fourier transform and its inverse ----------------------------------------------------
# torch.stft is Python (torch/functional.py: the centering pad) in front of the C++ function (SpectralOps.cpp:
# frames by as_strided, the window, _fft_r2c or _fft_c2c); torch.istft is C++ only. Both are written here as
# PyTorch's compositions, so their graphs hold PyTorch's nodes (FftR2CBackward0, UnfoldBackwardBackward0, ...).

_STFT_NO_WINDOW = (
    "A window was not provided. A rectangular window will be applied,which is known to cause spectral leakage. "
    "Other windows such as torch.hann_window or torch.hamming_window are recommended to reduce spectral leakage.To "
    "suppress this warning and use a rectangular window, explicitly set `window=torch.ones(n_fft, device=<device>)`. "
    "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/SpectralOps.cpp:835.)")
_STFT_REAL_OUTPUT = (
    "stft with return_complex=False is deprecated. In a future pytorch release, stft will return complex tensors "
    "for all inputs, and return_complex=False will raise an error.\nNote: you can still call torch.view_as_real on "
    "the complex output to recover the old return format. (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/SpectralOps.cpp:874.)")
_ISTFT_NO_WINDOW = (
    "A window was not provided. A rectangular window will be applied.Please provide the same window used by stft "
    "to make the inversion lossless.To suppress this warning and use a rectangular window, explicitly set "
    "`window=torch.ones(n_fft, device=<device>)`. (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/SpectralOps.cpp:1035.)")
_ISTFT_PADDED = (
    "The length of signal is shorter than the length parameter. Result is being padded with zeros in the tail. "
    "Please check your center and hop_length settings. (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/SpectralOps.cpp:1199.)")

# at::Tensor::toString(): the legacy type name where one exists ("torch.DoubleTensor"), else the backend's
_LEGACY_NAMES = {"float32": "Float", "float64": "Double", "float16": "Half", "uint8": "Byte", "int8": "Char",
                 "int16": "Short", "int32": "Int", "int64": "Long"}
_OTHER_NAMES = {"bool": "Bool", "bfloat16": "BFloat16", "void32": "ComplexHalf", "complex64": "ComplexFloat", "complex128": "ComplexDouble"}


def _to_string(t):
    name = str(t.dtype).split(".")[-1]
    if name in _LEGACY_NAMES:
        return f"torch.{_LEGACY_NAMES[name]}Tensor"
    return f"CPU{_OTHER_NAMES.get(name, name)}Type"


def _sizes(t):
    return "[" + ", ".join(str(s) for s in t.shape) + "]"


def _opt(value):
    return "None" if value is None else str(int(value))


def _fft_dims(self, dim):
    """torch._fft_*'s dims, wrapped to non-negative ones."""
    dims = [dim] if isinstance(dim, int) else list(dim)
    return tuple(_wrap_dim(d, self.dim()) for d in dims)


def _fft_r2c(self, dim, normalization, onesided):
    """torch._fft_r2c: the transform of a real signal; normalization 0 none, 1 1/sqrt(n), 2 1/n."""
    dims = _fft_dims(self, dim)
    return OPS["fft_r2c"](self, dim=dims, normalization=normalization, onesided=bool(onesided),
                          last_dim_size=self.shape[dims[-1]])


def _fft_c2c(self, dim, normalization, forward):
    """torch._fft_c2c: the transform of a complex signal, or (forward=False) its inverse."""
    return OPS["fft_c2c"](self, dim=_fft_dims(self, dim), normalization=normalization, forward=bool(forward))


def _fft_c2r(self, dim, normalization, last_dim_size):
    """torch._fft_c2r: the real signal of last_dim_size samples whose onesided transform is self."""
    return OPS["fft_c2r"](self, dim=_fft_dims(self, dim), normalization=normalization, last_dim_size=last_dim_size)


def stft(input, n_fft, hop_length=None, win_length=None, window=None, center=True, pad_mode="reflect",
         normalized=False, onesided=None, return_complex=None, align_to_window=None):
    """torch.stft: frames of n_fft samples hop_length apart (centred by a pad of n_fft // 2 if center),
    each multiplied by the window and Fourier transformed; a (B?, N, T) complex tensor."""
    if center and align_to_window is not None:
        raise RuntimeError("stft align_to_window should only be set when center = false")
    if center:                         # (torch/functional.py: the signal viewed as (1, B?, L) for F.pad)
        signal_dim = input.dim()
        extended_shape = [1] * (3 - signal_dim) + list(input.size())
        pad = int(n_fft // 2)
        if input.dtype == bool_ and pad_mode in ("reflect", "replicate"):     # (the pad kernels have no bool)
            kernel = "reflection_pad1d" if pad_mode == "reflect" else "replication_pad1d"
            raise NotImplementedError(f'"{kernel}" not implemented for \'Bool\'')
        input = nn.functional.pad(input.view(extended_shape), [pad, pad], pad_mode)
        input = input.view(input.shape[-signal_dim:])
    args, _ = _vetter(_signatures.CALLED["stft"])(
        (input, n_fft, hop_length, win_length, window, normalized, onesided, return_complex, align_to_window), {})
    return _stft(*args)


def _stft(self, n_fft, hop_length, win_length, window, normalized, onesided, return_complex, align_to_window):
    """at::stft (SpectralOps.cpp), step by step."""
    hop_length = n_fft >> 2 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length

    def fail(message):
        shown = "None" if window is None else f"{_to_string(window)}{{{_sizes(window)}}}"
        raise RuntimeError(f"stft({_to_string(self)}{_sizes(self)}, n_fft={n_fft}, hop_length={hop_length}, "
                           f"win_length={win_length}, window={shown}, normalized={int(normalized)}, "
                           f"onesided={_opt(onesided)}, return_complex={_opt(given_complex)}, "
                           f"align_to_window={_opt(align_to_window)}) : {message}")
    if window is None:
        _warn_once(_STFT_NO_WINDOW)
    given_complex = return_complex
    if return_complex is None:
        return_complex = self.is_complex() or (window is not None and window.is_complex())
        if not return_complex:
            raise RuntimeError("stft requires the return_complex parameter be given for real inputs, and will "
                               "further require that return_complex=True in a future PyTorch release.")
    if not return_complex:
        _warn_once(_STFT_REAL_OUTPUT)
    if not (self.is_floating_point() or self.is_complex()):
        fail("expected a tensor of floating point or complex values")
    if self.dim() not in (1, 2):
        fail("expected a 1D or 2D tensor")
    input = self.unsqueeze(0) if self.dim() == 1 else self
    batch, length = input.shape
    if n_fft <= 0 or n_fft > length:
        fail(f"expected 0 < n_fft < {length}, but got n_fft={win_length}")     # (PyTorch's message names win_length)
    if hop_length <= 0:
        fail(f"expected hop_length > 0, but got hop_length={hop_length}")
    if win_length <= 0 or win_length > n_fft:
        fail(f"expected 0 < win_length <= n_fft, but got win_length={win_length}")
    if window is not None and (window.dim() != 1 or window.shape[0] != win_length):
        fail(f"expected a 1D window tensor of size equal to win_length={win_length}, but got window with size "
             f"{_sizes(window)}")
    window_ = window
    left = (n_fft - win_length) // 2
    if win_length < n_fft:             # the window centred in n_fft zeros
        window_ = zeros(n_fft, dtype=(window if window is not None else self).dtype)
        if window is not None:
            window_.narrow(0, left, win_length).copy_(window)
        else:
            window_.narrow(0, left, win_length).fill_(1)
    if align_to_window:
        # (PyTorch pads left zeros on both sides but counts frames from the unpadded length)
        input = _constant_pad_nd(input, [left, left])
        n_frames = 1 + (length - win_length) // hop_length
    else:
        n_frames = 1 + (length - n_fft) // hop_length
    stride = input.stride()
    input = input.as_strided((batch, n_frames, n_fft), (stride[0], hop_length * stride[1], stride[1]))
    if window_ is not None:
        input = input.mul(window_)
    complex_fft = input.is_complex()
    onesided = (not complex_fft) if onesided is None else onesided
    if input.dtype == float16:
        raise RuntimeError("MKL FFT doesn't support tensors of type: Half")
    normalization = 1 if normalized else 0
    if complex_fft:
        if onesided:
            raise RuntimeError("Cannot have onesided output if window or input is complex")
        out = OPS["fft_c2c"](input, dim=(2,), normalization=normalization, forward=True)
    else:
        out = OPS["fft_r2c"](input, dim=(2,), normalization=normalization, onesided=bool(onesided),
                             last_dim_size=n_fft)
    out.transpose_(1, 2)
    if self.dim() == 1:
        out.squeeze_(0)
    return out if return_complex else view_as_real(out)


def istft(input, n_fft, hop_length=None, win_length=None, window=None, center=True, normalized=False,
          onesided=None, length=None, return_complex=False):
    """torch.istft: each frame inverse transformed, windowed and added back where stft read it (overlap-add),
    divided by the sum of the squared windows; the centring pad cut off, or the result cut (padded) to length."""
    self = input
    hop_length = n_fft >> 2 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length

    def fail(message, sep=": "):
        shown = "None" if window is None else f"{_to_string(window)}{{{_sizes(window)}}}"
        raise RuntimeError(f"istft({_to_string(self)}{_sizes(self)}, n_fft={n_fft}, hop_length={hop_length}, "
                           f"win_length={win_length}, window={shown}, center={int(center)}, "
                           f"normalized={int(normalized)}, onesided={_opt(onesided)}, length={_opt(length)}, "
                           f"return_complex={int(return_complex)}) {sep}{message}")
    if window is None:
        _warn_once(_ISTFT_NO_WINDOW)
    if not self.is_complex():
        raise RuntimeError("istft requires a complex-valued input tensor matching the output from stft with "
                           "return_complex=True.")
    input = view_as_real(self.resolve_conj())
    input_dim = input.dim()
    n_frames = input.shape[-2] if input_dim >= 2 else 0
    fft_size = input.shape[-3] if input_dim >= 3 else 0
    expected_len = n_fft + hop_length * (n_frames - 1)
    if input.numel() == 0:
        fail("input tensor cannot be empty.")
    if input_dim not in (3, 4):
        fail(f"expected a tensor with 3 or 4 dimensions, but got {input_dim}")
    onesided_ = (fft_size != n_fft) if onesided is None else onesided
    if onesided_:
        if n_fft // 2 + 1 != fft_size:
            fail("expected the frequency dimension (3rd to the last) of the input tensor to match n_fft / 2 + 1 "
                 f"when onesided=True, but got {fft_size}")
    elif n_fft != fft_size:
        fail("expected the frequency dimension (3rd to the last) of the input tensor to match n_fft when "
             f"onesided=False, but got {fft_size}")
    if not 0 < hop_length <= win_length:
        fail("expected 0 < hop_length <= win_length")
    if not 0 < win_length <= n_fft:
        fail("expected 0 < win_length <= n_fft")
    if window is not None and (window.dim() != 1 or window.shape[0] != win_length):
        fail("Invalid window shape. window has to be 1D and length of `win_length`")
    window_tmp = window if window is not None else ones(win_length, dtype=input.dtype)
    if win_length != n_fft:            # the window centred in n_fft zeros
        left = (n_fft - win_length) // 2
        window_tmp = _constant_pad_nd(window_tmp, [left, n_fft - win_length - left], 0)
    if input_dim == 3:
        input = input.unsqueeze(0)
    input = view_as_complex(input.transpose(1, 2))       # (channel, n_frames, fft_size)
    normalization = 1 if normalized else 2
    if return_complex:
        if onesided_:
            raise RuntimeError("Cannot have onesided output if window or input is complex")
        input = OPS["fft_c2c"](input, dim=(2,), normalization=normalization, forward=False)
    else:
        if window is not None and window.is_complex():
            raise RuntimeError("Complex windows are incompatible with return_complex=False")
        if not onesided_:
            input = input.narrow(-1, 0, n_fft // 2 + 1)
        input = OPS["fft_c2r"](input, dim=(2,), normalization=normalization, last_dim_size=n_fft)
    y_tmp = input * window_tmp.view(1, 1, n_fft)
    y = OPS["unfold_backward"](y_tmp, input_sizes=(y_tmp.shape[0], expected_len), dimension=1, size=n_fft,
                               step=hop_length)
    window_tmp = window_tmp.pow(2).expand(1, n_frames, n_fft)
    envelope = OPS["unfold_backward"](window_tmp, input_sizes=(1, expected_len), dimension=1, size=n_fft,
                                      step=hop_length)
    start = n_fft // 2 if center else 0
    if length is not None:
        end = start + length
    else:
        end = -(n_fft // 2) if center else expected_len
    # (at::slice: a SliceBackward0 even when it keeps everything)
    begin, stop, _ = slice(start, end).indices(expected_len)
    y = y.narrow(1, begin, max(stop - begin, 0))
    envelope = envelope.narrow(1, begin, max(stop - begin, 0))
    if bool((envelope.abs().min() < 1e-11).item()):
        fail("1\n[ CPUBoolType{} ]", sep="window overlap add min: ")
    y = y / envelope
    if input_dim == 3:
        y = y.squeeze(0)
    if end > expected_len:
        _warn_once(_ISTFT_PADDED)
        y = _constant_pad_nd(y, [0, end - expected_len], 0)
    return y
