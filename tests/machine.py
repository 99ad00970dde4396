"""What the machine under the tests changes in PyTorch's own results.

PyTorch's CPU build computes float32 `sqrt`, `tan`, `log`, ... with MKL's vector math (VML), its matrix
products with MKL's BLAS and `inverse` with MKL's LAPACK. MKL picks its kernels by CPU vendor: on Intel
CPUs (where CI runs) VML's float32 results are nearly correctly rounded, which is what gradlab computes; on
other CPUs (AMD's EPYC, measured) MKL takes a generic path whose last bits differ more often (float32
`sqrt` agrees with the correctly rounded value for 83% of inputs, `tan` 82%, `log` 92%). Tests that
compare such last bits hold gradlab to PyTorch's Intel results and say so where the CPU is another."""
from pathlib import Path


def _vendor():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("vendor_id"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


CPU_VENDOR = _vendor()
MKL_TAKES_INTELS_PATH = CPU_VENDOR == "GenuineIntel"
OTHER_CPU_REASON = (f"MKL's kernels for this {CPU_VENDOR} CPU round the last bit otherwise than on Intel's, "
                    "which gradlab follows (tests/machine.py)")
