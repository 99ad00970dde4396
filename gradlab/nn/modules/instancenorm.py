"""torch/nn/modules/instancenorm.py: InstanceNorm1d, InstanceNorm2d, InstanceNorm3d.

Each (sample, channel) is normalized over its positions. Unlike the batch norms, affine and
track_running_stats are off by default; an input without its batch dim is normalized as a batch of one."""

from .. import functional as F
from .batchnorm import _LazyNormBase, _NormBase
from ... import _warnings

__all__ = ["InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "LazyInstanceNorm1d", "LazyInstanceNorm2d",
           "LazyInstanceNorm3d"]


class _InstanceNorm(_NormBase):
    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=False, track_running_stats=False, device=None,
                 dtype=None, *, bias=True):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device=device, dtype=dtype,
                         bias=bias)

    def _get_no_batch_dim(self):
        raise NotImplementedError

    def _handle_no_batch_input(self, input):
        return self._apply_instance_norm(input.unsqueeze(0)).squeeze(0)

    def _apply_instance_norm(self, input):
        return F.instance_norm(input, self.running_mean, self.running_var, self.weight, self.bias,
                               self.training or not self.track_running_stats,
                               self.momentum if self.momentum is not None else 0.0, self.eps)

    def forward(self, input):
        self._check_input_dim(input)
        feature_dim = input.dim() - self._get_no_batch_dim()
        if input.size(feature_dim) != self.num_features:
            if self.affine:
                raise ValueError(f"expected input's size at dim={feature_dim} to match num_features "
                                 f"({self.num_features}), but got: {input.size(feature_dim)}.")
            _warnings.warn(f"input's size at dim={feature_dim} does not match num_features. You can silence this "
                           "warning by not passing in num_features, which is not used because affine=False")
        if input.dim() == self._get_no_batch_dim():
            return self._handle_no_batch_input(input)
        return self._apply_instance_norm(input)


class InstanceNorm1d(_InstanceNorm):
    def _get_no_batch_dim(self):
        return 2

    def _check_input_dim(self, input):
        if input.dim() not in (2, 3):
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class InstanceNorm2d(_InstanceNorm):
    def _get_no_batch_dim(self):
        return 3

    def _check_input_dim(self, input):
        if input.dim() not in (3, 4):
            raise ValueError(f"expected 3D or 4D input (got {input.dim()}D input)")


class InstanceNorm3d(_InstanceNorm):
    def _get_no_batch_dim(self):
        return 4

    def _check_input_dim(self, input):
        if input.dim() not in (4, 5):
            raise ValueError(f"expected 4D or 5D input (got {input.dim()}D input)")


def _lazy(cls):
    """LazyInstanceNorm{n}d: _LazyNormBase's parameters (affine and running stats on by default), then cls."""
    lazy = type(f"Lazy{cls.__name__}", (_LazyNormBase, _InstanceNorm),
                {"cls_to_become": cls, "_get_no_batch_dim": cls._get_no_batch_dim,
                 "_check_input_dim": cls._check_input_dim, "__module__": __name__})
    return lazy


LazyInstanceNorm1d = _lazy(InstanceNorm1d)
LazyInstanceNorm2d = _lazy(InstanceNorm2d)
LazyInstanceNorm3d = _lazy(InstanceNorm3d)
