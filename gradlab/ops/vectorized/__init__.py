"""PyTorch's vectorized float32 (and float64 softmax) CPU kernels, step by step in numpy, so that gradlab
prints PyTorch's bits.

Most float32 math in gradlab is computed in float64 and rounded once (correctly rounded). PyTorch's
CPU kernels are not correctly rounded: they are fast polynomial approximations written with SIMD
instructions, and their last bit differs from the exact answer for a share of inputs. Where the
kernel is public code we repeat it here, one float32 operation at a time, so the results agree bit for
bit. What PyTorch 2.13's CPU build (x86-64) runs, measured against it:

* softmax / log_softmax over the last dimension (and their gradients): ATen's own kernels
  (aten/src/ATen/native/cpu/SoftMaxKernel.cpp, LogSoftmaxKernelImpl.h) on `Vectorized<float>`:
  16 lanes with AVX512, 8 with AVX2. exp is SLEEF's `expf_u10` and log SLEEF's `logf_u10`
  (github.com/shibatch/sleef, src/libm/sleefsimdsp.c: `xexpf`, `xlogf_u1`); the sums run lane by
  lane over whole vectors, the leftover numbers join the first lanes, and the lanes are folded in
  halves at the end (`vec_reduce_all`).
* the same in float64, on `Vectorized<double>` (8 lanes with AVX512, 4 with AVX2): SLEEF's `expd_u10`
  and `logd_u10` (sleefsimddp.c: `xexp`, `xlog_u1`), glibc's exp in the scalar loops, the lanes added
  one after the other at the end (ATen has no shuffle for double).
* gelu (exact form) of a contiguous tensor of more than one element, and its gradient: oneDNN's
  JIT kernel (github.com/uxlfoundation/oneDNN, src/cpu/x64/injectors/jit_uni_eltwise_injector.cpp):
  with AVX-512 the forward is a piecewise degree-5 polynomial picked by the input's exponent bits;
  the gradient is Abramowitz and Stegun's erf formula with oneDNN's own exp.
* softmax / log_softmax over another dimension, gelu of one number or of a non-contiguous tensor,
  gelu's tanh form, sigmoid, silu, softplus, mish, elu, logsigmoid, log1p, expm1: ATen's loops
  (whole vectors with SLEEF's functions, the numbers left over with the C library's, glibc's).
* Not reproduced (gradlab keeps its correctly rounded float64 path): float32 exp, log, tan, sin, cos,
  tanh, erf of a tensor go to Intel MKL's VML library (`vmsExp`, `vmsTan`, ... in "high accuracy"
  mode), whose code is not public; the same results come out whatever the CPU capability.

Which kernel runs depends on the CPU, as in PyTorch: ATen picks AVX512 when the CPU has
avx512f/bw/vl/dq and fma, else AVX2 (avx2 and fma), else its plain C++ (DEFAULT), and the
environment variable ATEN_CPU_CAPABILITY (avx512, avx2, default) overrides it. oneDNN looks at the
CPU on its own (ONEDNN_MAX_CPU_ISA can lower it). Where gradlab cannot know the CPU (no
/proc/cpuinfo, not x86-64) or PyTorch would take a path not written here, gradlab keeps its float64
path.

A fused multiply-add (`fma(a, b, c)`: a * b + c rounded once) is what the vector instruction
`vfmadd` computes; numpy has none. For float32 operands the product is exact in float64, so the
only error of `float64(a) * b + c` is the rounding of the sum, and rounding that again to float32
can round twice ("double rounding"). That only matters when the float64 sum lands exactly half-way
between two float32 numbers; there `fma32` looks at the sum's own rounding error and nudges it.
numpy's cost is per call rather than per number, so the kernels are written for few calls: 0-d
array constants, Horner steps in float64, the half-way test once per kernel (core.py). The kernels
on the training path (expf, logf, log1pf; softmax, log_softmax, sigmoid, silu) go further (sleef.py):
no half-way test where the float64 sum is exact (shown from the operands' exponents) or was checked
never to be half-way unless exact, on every input it can see; Horner steps whose results stay in one
binade rounded by adding and subtracting a constant (one float64 rounding to float32's grid there);
buffers reused (a fresh large array costs its page faults). tests/ops/test_vectorized_fast_paths.py
compares them with the same kernels one fma32 at a time.

A float64 fma cannot be had by widening: sleef_double.py builds it from error-free pieces (Dekker's
exact product, Knuth's exact sum) and checks the one doubtful rounding when each kernel ends.

Files: core.py (which kernels run on this CPU; float32 arithmetic with one rounding per fma; the
kernel runner), sleef.py (SLEEF's expf, logf, tanhf, log1pf, expm1f), sleef_double.py (SLEEF's float64
exp and log, the float64 fma, glibc's exp), glibc.py (the C library's
expf, erff, expm1f, tanhf, log1pf), onednn.py (oneDNN's gelu), softmax.py (ATen's softmax family),
elementwise.py (ATen's elementwise loop and the activations on it).
"""
from .core import (  # noqa: F401
    _fma, _kernel, cpu_capability, fma32, onednn_avx512)
from .sleef import (  # noqa: F401
    sleef_expf, sleef_expm1f, sleef_log1pf, sleef_logf, sleef_tanhf)
from .sleef_double import (  # noqa: F401
    exact_fma, fma64, glibc_exp, sleef_expd, sleef_logd)
from .glibc import (  # noqa: F401
    glibc_erff, glibc_expf, glibc_expm1f, glibc_log1pf, glibc_tanhf)
from .onednn import (  # noqa: F401
    gelu_backward_onednn, gelu_onednn)
from .softmax import (  # noqa: F401
    log_softmax_backward_inner, log_softmax_backward_lastdim, log_softmax_inner, log_softmax_lastdim,
    row_sums, softmax_backward_inner, softmax_backward_lastdim, softmax_inner, softmax_lastdim)
from .elementwise import (  # noqa: F401
    by_loop, elementwise, elu, expm1, gelu_aten, gelu_backward_aten, gelu_tanh, log1p, log_sigmoid,
    complex_neg, log_sigmoid_backward, loop_mask, mish, mish_backward, sigmoid, silu, silu_backward, softplus,
    softplus_exp, tanh_in_loop)
