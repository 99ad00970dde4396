"""The op table. Importing this package registers every op in `registry.OPS`."""
from . import registry  # noqa: F401
from . import elementwise, reduction, shape, linalg, nn, indexing  # noqa: F401
from .registry import OPS  # noqa: F401
