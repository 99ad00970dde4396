"""torch.get_num_threads() and get_num_interop_threads() answer as PyTorch's CPU build does under the
environment variables and CPU affinity that size its thread pools (some of PyTorch's float sums add one
partial sum per thread, so gradlab's bits depend on agreeing about the count)."""
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.torch

SETTINGS = [{}, {"OMP_NUM_THREADS": "1"}, {"MKL_NUM_THREADS": "1"}, {"OMP_NUM_THREADS": "3"},
            {"MKL_NUM_THREADS": "5", "OMP_NUM_THREADS": "1"}, {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "2"},
            {"MKL_DYNAMIC": "false", "OMP_NUM_THREADS": "3"}, {"OMP_NUM_THREADS": "x"}]


def _counts(library, env, cpus=None):
    code = f"import {library} as t; print(t.get_num_threads(), t.get_num_interop_threads())"
    command = [sys.executable, "-c", code]
    if cpus is not None:
        command = ["taskset", "-c", cpus] + command
    clean = {k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "MKL_DYNAMIC")}
    return subprocess.run(command, env={**clean, **env}, capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("env", SETTINGS, ids=lambda e: ",".join(f"{k}={v}" for k, v in e.items()) or "default")
def test_thread_counts_follow_the_environment(env):
    assert _counts("gradlab", env) == _counts("torch", env)


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2
                    or subprocess.run(["which", "taskset"], capture_output=True).returncode,
                    reason="needs taskset and two CPUs to pin the process to one")
@pytest.mark.parametrize("env", [{}, {"OMP_NUM_THREADS": "2"}], ids=["default", "OMP_NUM_THREADS=2"])
def test_thread_counts_follow_cpu_affinity(env):
    cpu = str(min(os.sched_getaffinity(0)))
    assert _counts("gradlab", env, cpu) == _counts("torch", env, cpu)
