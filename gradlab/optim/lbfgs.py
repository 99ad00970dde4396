"""L-BFGS, as torch.optim.LBFGS computes it: the same tensor operations in the same order (so the same numbers),
with its optional strong-Wolfe line search.

L-BFGS needs the loss more than once per step, so `step` takes a closure that clears the gradients, computes the
loss, calls backward and returns the loss. All parameters are treated as one flat vector (one parameter group only).
Each iteration: a direction d from the gradient and the last `history_size` pairs (s = change of x, y = change of
the gradient), by the two-loop recursion; then a step t along d, fixed (lr, the first time scaled by 1 / |g|_1) or
found by the line search.
"""
from ..autograd import grad_mode
from ..ops.shape import cat, view_as_real
from ..tensor import Tensor
from .optimizer import Optimizer

__all__ = ["LBFGS"]


def _cubic_interpolate(x1, f1, g1, x2, f2, g2, bounds=None):
    """The minimiser of the cubic through (x1, f1) and (x2, f2) with slopes g1 and g2, kept within bounds (by
    default [x1, x2]); the middle of the bounds when the cubic has no minimum."""
    low, high = bounds if bounds is not None else ((x1, x2) if x1 <= x2 else (x2, x1))
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1 ** 2 - g1 * g2
    if d2_square >= 0:
        d2 = d2_square.sqrt()
        if x1 <= x2:
            min_pos = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
        else:
            min_pos = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
        return min(max(min_pos, low), high)
    return (low + high) / 2.0


def _strong_wolfe(obj_func, x, t, d, f, g, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9, max_ls=25):
    """A step t along d with enough decrease (f(x + t d) <= f + c1 t gtd) and a small enough slope
    (|g(x + t d) . d| <= -c2 gtd): first bracket such a step, growing t, then zoom into the bracket by cubic
    interpolation. Returns (loss, flat gradient, t, evaluations)."""
    d_norm = d.abs().max()
    g = g.clone()
    f_new, g_new = obj_func(x, t, d)
    evals = 1
    gtd_new = g_new.dot(d)
    t_prev, f_prev, g_prev, gtd_prev = 0, f, g, gtd
    done = False
    ls_iter = 0
    # 1. bracketing
    while ls_iter < max_ls:
        if f_new > (f + c1 * t * gtd) or (ls_iter > 1 and f_new >= f_prev):
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new.clone()], [gtd_prev, gtd_new]
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket, bracket_f, bracket_g = [t], [f_new], [g_new]
            done = True
            break
        if gtd_new >= 0:
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new.clone()], [gtd_prev, gtd_new]
            break
        # extrapolate: between 1.01 t and 10 t
        min_step, max_step = t + 0.01 * (t - t_prev), t * 10
        t_prev, t = t, _cubic_interpolate(t_prev, f_prev, gtd_prev, t, f_new, gtd_new, bounds=(min_step, max_step))
        f_prev, g_prev, gtd_prev = f_new, g_new.clone(), gtd_new
        f_new, g_new = obj_func(x, t, d)
        evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
    if ls_iter == max_ls:          # (the budget ran out while bracketing)
        bracket, bracket_f, bracket_g = [0, t], [f, f_new], [g, g_new]
    # 2. zoom
    insufficient_progress = False
    low, high = (0, 1) if bracket_f[0] <= bracket_f[-1] else (1, 0)
    while not done and ls_iter < max_ls:
        if abs(bracket[1] - bracket[0]) * d_norm < tolerance_change:
            break
        t = _cubic_interpolate(bracket[0], bracket_f[0], bracket_gtd[0], bracket[1], bracket_f[1], bracket_gtd[1])
        # a point too close to an end of the bracket is moved 10% of its width inside
        eps = 0.1 * (max(bracket) - min(bracket))
        if min(max(bracket) - t, t - min(bracket)) < eps:
            if insufficient_progress or t >= max(bracket) or t <= min(bracket):
                t = max(bracket) - eps if abs(t - max(bracket)) < abs(t - min(bracket)) else min(bracket) + eps
                insufficient_progress = False
            else:
                insufficient_progress = True
        else:
            insufficient_progress = False
        f_new, g_new = obj_func(x, t, d)
        evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
        if f_new > (f + c1 * t * gtd) or f_new >= bracket_f[low]:
            bracket[high], bracket_f[high], bracket_g[high], bracket_gtd[high] = t, f_new, g_new.clone(), gtd_new
            low, high = (0, 1) if bracket_f[0] <= bracket_f[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high] - bracket[low]) >= 0:
                bracket[high], bracket_f[high] = bracket[low], bracket_f[low]
                bracket_g[high], bracket_gtd[high] = bracket_g[low], bracket_gtd[low]
            bracket[low], bracket_f[low], bracket_g[low], bracket_gtd[low] = t, f_new, g_new.clone(), gtd_new
    return bracket_f[low], bracket_g[low], bracket[low], evals


class LBFGS(Optimizer):
    def __init__(self, params, lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-7, tolerance_change=1e-9,
                 history_size=100, line_search_fn=None):
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        defaults = dict(lr=lr, max_iter=max_iter, max_eval=max_eval, tolerance_grad=tolerance_grad,
                        tolerance_change=tolerance_change, history_size=history_size, line_search_fn=line_search_fn)
        super().__init__(params, defaults)
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        self._params = self.param_groups[0]["params"]
        self._numel_cache = None

    def _numel(self):
        if self._numel_cache is None:
            self._numel_cache = sum(2 * p.numel() if p.is_complex() else p.numel() for p in self._params)
        return self._numel_cache

    def _gather_flat_grad(self):
        """Every parameter's gradient, flattened and joined (zeros for a parameter without one)."""
        views = []
        for p in self._params:
            view = p.new(p.numel()).zero_() if p.grad is None else p.grad.view(-1)
            views.append(view_as_real(view).view(-1) if view.is_complex() else view)
        return cat(views, 0)

    def _add_grad(self, step_size, update):
        """x += step_size * update, the flat update cut back into the parameters."""
        offset = 0
        for p in self._params:
            if p.is_complex():
                p = view_as_real(p)
            n = p.numel()
            p.add_(update[offset:offset + n].view_as(p), alpha=step_size)
            offset += n
        if offset != self._numel():
            raise AssertionError(f"Expected offset {offset} to equal {self._numel()}")

    def _clone_param(self):
        return [p.clone() for p in self._params]

    def _set_param(self, params_data):
        for p, data in zip(self._params, params_data):
            p.copy_(data)

    def _directional_evaluate(self, closure, x, t, d):
        """The loss and flat gradient at x + t d, the parameters then put back to x."""
        self._add_grad(t, d)
        loss = float(closure())
        flat_grad = self._gather_flat_grad()
        self._set_param(x)
        return loss, flat_grad

    def step(self, closure):
        with grad_mode.no_grad():
            return self._step(closure)

    def _step(self, closure):
        def evaluate():
            with grad_mode.enable_grad():
                return closure()

        group = self.param_groups[0]
        lr = group["lr"].item() if isinstance(group["lr"], Tensor) else group["lr"]
        max_iter, max_eval = group["max_iter"], group["max_eval"]
        tolerance_grad, tolerance_change = group["tolerance_grad"], group["tolerance_change"]
        line_search_fn, history_size = group["line_search_fn"], group["history_size"]
        # the whole state is kept on the first parameter, as torch does
        state = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)

        orig_loss = evaluate()
        loss = float(orig_loss)
        current_evals = 1
        state["func_evals"] += 1
        flat_grad = self._gather_flat_grad()
        opt_cond = flat_grad.abs().max() <= tolerance_grad
        if opt_cond:                                       # already optimal
            return orig_loss

        d, t = state.get("d"), state.get("t")
        old_dirs, old_stps, ro, H_diag = state.get("old_dirs"), state.get("old_stps"), state.get("ro"), state.get("H_diag")
        prev_flat_grad, prev_loss = state.get("prev_flat_grad"), state.get("prev_loss")

        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state["n_iter"] += 1
            # the direction
            if state["n_iter"] == 1:
                d = flat_grad.neg()
                old_dirs, old_stps, ro, H_diag = [], [], [], 1
            else:
                y = flat_grad.sub(prev_flat_grad)
                s = d.mul(t)
                ys = y.dot(s)
                if ys > 1e-10:               # keep the pair only when the curvature is positive
                    if len(old_dirs) == history_size:
                        old_dirs.pop(0)
                        old_stps.pop(0)
                        ro.pop(0)
                    old_dirs.append(y)
                    old_stps.append(s)
                    ro.append(1.0 / ys)
                    H_diag = ys / y.dot(y)   # the initial inverse Hessian's scale
                num_old = len(old_dirs)
                if "al" not in state:
                    state["al"] = [None] * history_size
                al = state["al"]
                q = flat_grad.neg()          # two-loop recursion: q = -H g
                for i in range(num_old - 1, -1, -1):
                    al[i] = old_stps[i].dot(q) * ro[i]
                    q.add_(old_dirs[i], alpha=-al[i])
                d = r = q.mul(H_diag)
                for i in range(num_old):
                    be_i = old_dirs[i].dot(r) * ro[i]
                    r.add_(old_stps[i], alpha=al[i] - be_i)
            if prev_flat_grad is None:
                prev_flat_grad = flat_grad.clone()
            else:
                prev_flat_grad.copy_(flat_grad)
            prev_loss = loss
            # the step length
            t = min(1.0, 1.0 / flat_grad.abs().sum()) * lr if state["n_iter"] == 1 else lr
            gtd = flat_grad.dot(d)           # the slope along d: not a descent direction, stop
            if gtd > -tolerance_change:
                break
            ls_func_evals = 0
            if line_search_fn is not None:
                if line_search_fn != "strong_wolfe":
                    raise RuntimeError("only 'strong_wolfe' is supported")
                x_init = self._clone_param()

                def obj_func(x, t, d):
                    return self._directional_evaluate(evaluate, x, t, d)

                loss, flat_grad, t, ls_func_evals = _strong_wolfe(obj_func, x_init, t, d, loss, flat_grad, gtd,
                                                                  max_ls=max_eval - current_evals)
                self._add_grad(t, d)
                opt_cond = flat_grad.abs().max() <= tolerance_grad
            else:
                self._add_grad(t, d)
                if n_iter != max_iter:       # (the last iteration needs no new gradient)
                    loss = float(evaluate())
                    flat_grad = self._gather_flat_grad()
                    opt_cond = flat_grad.abs().max() <= tolerance_grad
                    ls_func_evals = 1
            current_evals += ls_func_evals
            state["func_evals"] += ls_func_evals
            # the stopping tests
            if n_iter == max_iter or current_evals >= max_eval or opt_cond:
                break
            if d.mul(t).abs().max() <= tolerance_change or abs(loss - prev_loss) < tolerance_change:
                break

        state.update(d=d, t=t, old_dirs=old_dirs, old_stps=old_stps, ro=ro, H_diag=H_diag,
                     prev_flat_grad=prev_flat_grad, prev_loss=prev_loss)
        return orig_loss
