"""Adafactor (Shazeer and Stern, 2018), as torch.optim.Adafactor computes it: for a matrix (and the last two
dimensions of a higher tensor) the second moment is kept as a row factor and a column factor, their outer
product divided by the mean row standing in for the full matrix, so the state grows with rows + columns, not
rows * columns; vectors keep a plain running average. No first moment. The step size is relative to the
parameter's root mean square, and each update is clipped to an RMS of d. PyTorch's single-tensor code with
gradlab tensors; the running averages' lerp_ is the optimizers' own (PyTorch's fused kernel, in float64 too)."""
from .. import _dtype
from ..autograd import grad_mode
from ..creation.factories import zeros_like
from ..tensor import Tensor
from .optimizer import Optimizer, _add_scaled, _check_tensor_lr, _lerp, _new_step

__all__ = ["Adafactor"]


def _norm(t, dim=None):
    """The 2-norm of t (over dim, kept): gradlab's; its last bit can differ from PyTorch's vectorized sum over
    the last dimension (one name, so a test can put torch's in its place)."""
    return t.norm(2) if dim is None else t.norm(dim=dim, keepdim=True)


def _mean_rows(row_var):
    """row_var.mean(dim=-2, keepdim=True): gradlab's; for more than two dimensions its last bit can differ from
    PyTorch's (another order of the sum), as above."""
    return row_var.mean(dim=-2, keepdim=True)


class Adafactor(Optimizer):
    _GROUP_DEFAULTS = dict(foreach=None)

    def __init__(self, params, lr=1e-2, beta2_decay=-0.8, eps=(None, 1e-3), d=1.0, weight_decay=0.0, *,
                 foreach=None, maximize=False):
        _check_tensor_lr(lr)
        # (torch's own messages here, unlike the other optimizers')
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 >= beta2_decay:
            raise ValueError(f"beta2_decay should be <= 0 but is: {beta2_decay}")
        if eps[0] is not None and not 0.0 <= eps[0]:
            raise ValueError(f"epsilon1 should be >= 0 but is: {eps[0]}")
        if not 0.0 <= eps[1]:
            raise ValueError(f"epsilon2 should be >= 0 but is: {eps[1]}")
        if not 1.0 <= d:
            raise ValueError(f"Clipping threshold d should be >= 1 but is: {d}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight_decay should be >= 0 but is: {weight_decay}")
        defaults = dict(lr=lr, beta2_decay=beta2_decay, eps=eps, d=d, weight_decay=weight_decay, foreach=foreach,
                        maximize=maximize)
        super().__init__(params, defaults)

    def _init_state(self, p, state):
        if p.is_complex():
            raise RuntimeError("Adafactor does not support complex parameters")
        state["step"] = _new_step()
        grad = p.grad
        if grad.dim() > 1:
            row_shape = list(grad.shape)
            row_shape[-1] = 1               # the row factor: the mean over the last dimension
            state["row_var"] = grad.new_zeros(row_shape)
            col_shape = list(grad.shape)
            col_shape[-2] = 1               # the column factor: the mean over the one before
            state["col_var"] = grad.new_zeros(col_shape)
        else:
            state["variance"] = zeros_like(grad)

    def step(self, closure=None):
        loss = None
        if closure is not None:
            with grad_mode.enable_grad():
                loss = closure()
        with grad_mode.no_grad():
            for group in self.param_groups:
                params = []
                for p in group["params"]:       # (torch checks and sets up a whole group before any update)
                    if p.grad is None:
                        continue
                    if p.is_complex():
                        raise RuntimeError("Adafactor does not support complex parameters")
                    if p.grad.is_sparse:
                        raise RuntimeError("Adafactor does not support sparse gradients")
                    params.append(p)
                    if len(self.state[p]) == 0:
                        self._init_state(p, self.state[p])
                # eps1=None: one machine epsilon for the whole group (torch's loop assigns it once): the first
                # parameter's dtype's; with foreach, the first dtype group's, and torch's grouping lists the dtypes
                # in the reverse order of their first appearance
                eps1 = group["eps"][0]
                if eps1 is None and params:
                    dtypes = list(dict.fromkeys(p.dtype for p in params))
                    eps1 = _dtype.finfo(dtypes[-1] if group["foreach"] else dtypes[0]).eps
                for p in params:
                    self._update_param(p, group, self.state[p], eps1)
        return loss

    def _update_param(self, param, group, state, eps1):
        lr = group["lr"].item() if isinstance(group["lr"], Tensor) else group["lr"]
        eps2 = group["eps"][1]
        d, beta2_decay, weight_decay = group["d"], group["beta2_decay"], group["weight_decay"]
        grad = -param.grad if group["maximize"] else param.grad
        step_t = state["step"]
        step_t += 1
        step_float = step_t.item()
        one_minus_beta2_t = step_float ** beta2_decay          # 1 - beta2_t = t ** beta2_decay
        rho_t = min(lr, 1 / (step_float ** 0.5))
        alpha = max(eps2, _norm(param).item() / (param.numel() ** 0.5)) * rho_t    # relative to the RMS
        if weight_decay != 0:
            param.mul_(1 - lr * weight_decay)
        if grad.dim() > 1:
            row_var, col_var = state["row_var"], state["col_var"]
            # (g * g).mean(dim=-1) without the full g * g: a norm, squared, divided
            row_mean = _norm(grad, -1).square_().div_(grad.size(-1))
            _lerp(row_var._data, row_mean._data, one_minus_beta2_t)    # row_var.lerp_(row_mean, ...)
            col_mean = _norm(grad, -2).square_().div_(grad.size(-2))
            _lerp(col_var._data, col_mean._data, one_minus_beta2_t)
            var_estimate = row_var @ col_var
            var_estimate.div_(_mean_rows(row_var).clamp_(min=eps1))
        else:
            variance = state["variance"]
            _lerp(variance._data, (grad * grad)._data, one_minus_beta2_t)
            var_estimate = variance.clone()                     # (the update must not write into variance)
        # eps1 squared: the square root follows
        update = var_estimate.clamp_(min=eps1 * eps1).rsqrt_()
        update.mul_(grad)
        denom = max(1.0, _norm(update).item() / ((update.numel() ** 0.5) * d))
        if group["foreach"]:
            # torch's multi-tensor code scales the update, then adds it: two roundings
            param._data += update._data * param._data.dtype.type(-alpha / denom)
        else:
            # param.add_(update, alpha=-alpha / denom): one fused rounding (the optimizers' own, exact in float64)
            param._data[...] = _add_scaled(param._data, update._data, -alpha / denom)
        param._version_counter[0] += 1
