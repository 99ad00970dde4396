"""The C math library (libm), loaded once: ATen's scalar code calls its functions (std::exp, std::sinh, ...),
and numpy has no binding to several of them."""
import ctypes
import functools


@functools.cache
def c_math_library():
    """The loaded C math library. Its usual name is tried first: ctypes.util.find_library runs
    `ldconfig` in a subprocess, which costs milliseconds at each call."""
    for name in ("libm.so.6", "libm.dylib"):
        try:
            return ctypes.CDLL(name)
        except OSError:
            pass
    from ctypes import util     # (here: it imports subprocess and more, ~9 ms that most machines never need)
    return ctypes.CDLL(util.find_library("m"))
