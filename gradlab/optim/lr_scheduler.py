"""torch.optim.lr_scheduler: learning-rate schedules."""
__all__ = []
