"""torch.backends.cuda: absent here."""


def is_built():
    return False
