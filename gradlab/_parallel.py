"""PyTorch's intra-op thread count (ATen/Parallel): what `torch.get_num_threads()` answers and how many
blocks PyTorch's CPU kernels split a reduction into. gradlab computes on one thread with numpy; the
number matters because some of PyTorch's sums (batch norm's statistics, long aranges) add per-thread
partial sums, and gradlab reproduces their bits.

PyTorch's CPU build sizes its OpenMP pool as MKL does (measured on 2.13): MKL_NUM_THREADS, else
OMP_NUM_THREADS, capped at the machine's physical cores unless MKL_DYNAMIC=false; with neither set, one
thread per physical core the process may run on (hyper-threads of one core count once). The inter-op
pool's default counts the machine's physical cores, whatever the process's CPU affinity."""
import os

__all__ = ["default_num_threads", "default_num_interop_threads", "get_num_threads", "set_num_threads"]


def _env_threads(name):
    value = os.environ.get(name, "")
    return int(value) if value.isdigit() and int(value) > 0 else 0


def _physical_cores(affinity=True):
    """Cores (not hyper-threads) among the CPUs this process may run on (or all the machine's), from
    Linux's sysfs topology; the logical CPU count where the topology cannot be read."""
    if affinity and hasattr(os, "sched_getaffinity"):
        cpus = sorted(os.sched_getaffinity(0))
    else:
        cpus = list(range(os.cpu_count() or 1))
    cores = set()
    for cpu in cpus:
        topology = f"/sys/devices/system/cpu/cpu{cpu}/topology/"
        try:
            with open(topology + "physical_package_id") as package, open(topology + "core_id") as core:
                cores.add((package.read().strip(), core.read().strip()))
        except OSError:
            return len(cpus) or 1
    return len(cores) or 1


def default_num_threads():
    asked = _env_threads("MKL_NUM_THREADS") or _env_threads("OMP_NUM_THREADS")
    if not asked:
        return _physical_cores()
    if os.environ.get("MKL_DYNAMIC", "").lower() in ("false", "0", "no"):
        return asked
    return min(asked, _physical_cores(affinity=False))


def default_num_interop_threads():
    return _physical_cores(affinity=False)


_threads = [default_num_threads()]


def get_num_threads():
    return _threads[0]


def set_num_threads(n):
    """(the caller has checked n: a positive int)"""
    _threads[0] = n
