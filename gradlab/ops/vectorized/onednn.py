"""oneDNN's gelu (eltwise_gelu_erf), which PyTorch calls for contiguous float32 tensors of more than
one number on AVX-512 CPUs (src/cpu/x64/injectors/jit_uni_eltwise_injector.cpp): the forward is a
piecewise degree-5 polynomial picked by the input's exponent bits, the gradient Abramowitz and
Stegun's erf formula with oneDNN's own exp.
"""
import numpy as np

from .core import _F32, _F64, _I32, _bits, _f, _fma, _from_bits, _k64, _kernel, _poly


# --- oneDNN's gelu (eltwise_gelu_erf) -------------------------------------------------------------------

# jit_uni_eltwise_injector.cpp, gelu_erf_minimax_polynomial: for each of 32 intervals (25 used) the
# coefficients of degree 0..5 of a polynomial p with gelu(x) = x/2 * (1 + sign(x) * p(|x|)).
_GELU_TABLE = np.array([
    [  # degree 0
     0xa6f2cb94, 0x32827792, 0x3381cc0c, 0x34523d4a, 0x351ac44d, 0x35f36d88, 0x36ee8229, 0x37b8a3bb,
     0x3867a213, 0x3940033b, 0x3a2a5a1d, 0x3ae35863, 0x3b7828f2, 0x3c08b14b, 0x3c515ed3, 0xbb503236,
     0xbd8d8e5e, 0xbe8abcd9, 0xbf0c19a2, 0xbeccb328, 0x3e176ced, 0x3f470d99, 0x3f7abb28, 0x3f800000,
     0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
    ],
    [  # degree 1
     0x3f4c422a, 0x3f4c421f, 0x3f4c4207, 0x3f4c41cb, 0x3f4c413b, 0x3f4c3fad, 0x3f4c3a2f, 0x3f4c2d40,
     0x3f4c146a, 0x3f4bc341, 0x3f4ad08c, 0x3f48f8cf, 0x3f45fac7, 0x3f404e07, 0x3f3b980f, 0x3f48dff3,
     0x3f78b21b, 0x3fbb0704, 0x40019c32, 0x3fe536d6, 0x3f81331e, 0x3e6c8684, 0x3c98f936, 0x00000000,
     0x3f800000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
    ],
    [  # degree 2
     0xb62173f4, 0x3735e4cf, 0x37f2ff89, 0x388c23be, 0x3917535c, 0x39ab2ab0, 0x3a60fadb, 0x3af9b960,
     0x3b6e5491, 0x3c0a4ec5, 0x3ca5aa8c, 0x3d2138d9, 0x3d8737d4, 0x3ddfb660, 0x3e0f27ab, 0x3d94004b,
     0xbe0efdeb, 0xbf1d96c3, 0xbf89db58, 0xbf6d9897, 0xbef69fb8, 0xbdc4f8a8, 0xbbde6422, 0x00000000,
     0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
    ],
    [  # degree 3
     0xbe081a19, 0xbe084570, 0xbe08639b, 0xbe089837, 0xbe08f409, 0xbe09ab95, 0xbe0b66d0, 0xbe0e400a,
     0xbe124df8, 0xbe1bde02, 0xbe2f19c9, 0xbe4931bf, 0xbe685fbc, 0xbe89c95f, 0xbe96cbca, 0xbe8044aa,
     0xbe0550f2, 0x3dcfd6a1, 0x3e94c826, 0x3e79345f, 0x3decec91, 0x3ca46568, 0x3aa1e00a, 0x00000000,
     0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
    ],
    [  # degree 4
     0xba3d61db, 0x39f097a3, 0x3a5845dc, 0x3ab1fa35, 0x3b0cefb8, 0x3b653ab6, 0x3bcae527, 0x3c221712,
     0x3c6c5840, 0x3cc0a703, 0x3d1dcc19, 0x3d63656d, 0x3d955907, 0x3dbf9910, 0x3dd53f69, 0x3db7dcef,
     0x3d639ebe, 0xba6ede48, 0xbd22be69, 0xbd041cf1, 0xbc64f5ab, 0xbb097a32, 0xb8ebf380, 0x00000000,
     0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
    ],
    [  # degree 5
     0x3cb7d80c, 0x3c9b6050, 0x3c978d11, 0x3c92e850, 0x3c8d058b, 0x3c848454, 0x3c6cd623, 0x3c4c824b,
     0x3c2a7935, 0x3be0b390, 0x3b0651ac, 0xbb232f53, 0xbbd42fa0, 0xbc2c5366, 0xbc492c9e, 0xbc2a7aa6,
     0xbbd55d04, 0xba823a76, 0x3b102aa8, 0x3ae25a7e, 0x3a31f792, 0x38b84375, 0x3689bb5a, 0x00000000,
     0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
    ],
], np.uint32).view(np.float32)


@_kernel
def gelu_onednn(x):
    """gelu(x) (exact form) as oneDNN's AVX-512 kernel: the interval index from the bits of |x|
    (exponent and 2 mantissa bits), a degree-5 polynomial by fma steps, then x * (1 + sign * p) / 2."""
    x = _f(x)
    xb = _bits(x)
    pos_bits = xb & _I32(0x7FFFFFFF)
    pos = _from_bits(pos_bits)
    index = np.clip((pos_bits + _I32(-0x3DE00001)) >> _I32(21), 1, 24)     # + 0xc21fffff
    index = np.where(_from_bits(0x40B15CEE) < pos, 23, index) & 31         # beyond 5.54: erf is 1
    c = _GELU_TABLE[:, index]                                # each number's coefficients
    p, _ = _poly(pos.astype(_F64), [c[4], c[3], c[2], c[1], c[0]], c[5].astype(_F64))
    p = _from_bits(_bits(p) ^ (xb & _I32(-2 ** 31)))
    return (x * (p + _F32(1))) * _F32(0.5)


def _onednn_exp(x):
    """oneDNN's exp (exp_compute_vector_fwd): n = floor(x log2(e) + 1/2), r = x - n ln2, a degree-5
    polynomial, times 2**(n-1) times 2."""
    low = x < _from_bits(0xC2AEAC50)                       # below log(FLT_MIN): 0
    src = np.maximum(np.minimum(x, _from_bits(0x42B17218)), _from_bits(0xC2AEAC50))
    n = np.floor(src * _from_bits(0x3FB8AA3B) + _F32(0.5))
    r = _fma(-n, _from_bits(0x3F317218), src, exact_sum=True)   # (exact in float64)
    scale = _from_bits((np.rint(n - _F32(1)).astype(_I32) + _I32(127)) << _I32(23))
    scale = np.where(low, _F32(0), scale)
    p, _ = _poly(r.astype(_F64), _K_EXP_POLY)
    return p * scale * _F32(2)


_K_EXP_POLY = [_k64(_from_bits(c)) for c in (0x3C07CFCE, 0x3D2B9D0D, 0x3E2AAD40, 0x3EFFFEE3, 0x3F7FFFFB)] + [_k64(1)]


_AS_POLY = [_from_bits(v) for v in (0x3E827906, 0xBE91A98E, 0x3FB5F0E3, 0xBFBA00E3, 0x3F87DC22)]
_K_AS_POLY = [_k64(c) for c in _AS_POLY[::-1]]


@_kernel
def gelu_backward_onednn(grad, x):
    """grad * gelu'(x) as oneDNN's kernel: erf(x/sqrt2) by Abramowitz and Stegun 7.1.26 with oneDNN's
    exp, gelu' = 1/2 + x/sqrt(2 pi) exp(-x^2/2) + erf/2."""
    x = _f(x)
    r = x * _from_bits(0x3F3504F3)                           # x / sqrt(2)
    q = _onednn_exp(-(r * r))
    t = r * _from_bits(0x3F106EBA) * q                       # r / sqrt(pi) * q
    w = _F32(1) / _fma(_from_bits(0x3EA7BA05), np.abs(r), _F32(1))
    p, _ = _poly(w.astype(_F64), _K_AS_POLY)
    erf = _fma(-q * w, p, _F32(1))
    erf = _from_bits(_bits(erf) ^ (_bits(r) & _I32(-2 ** 31)))
    return _f(grad) * _fma(erf, _F32(0.5), t + _F32(0.5))
