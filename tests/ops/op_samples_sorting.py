"""Sample inputs of the sorting ops (registered into op_samples.SAMPLES; see op_samples.py)."""
from op_samples import Case, sample, shape, uniform  # noqa: F401
