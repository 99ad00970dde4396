# A tiny language model over a made-up alphabet of 10 symbols: the text is a counting pattern with some
# random symbols mixed in, cut into consecutive windows; inputs are one-hot (steps, batch, symbols), an
# nn.RNN feeds a Linear head, gradients are clipped by their global norm, and perplexity is reported.
import math

import torch
from torch import nn
from torch.nn import functional as F

n_symbols, width, window, rows = 10, 20, 6, 4
print(F.one_hot(torch.tensor([1, 7, 7]), n_symbols))
ids = torch.arange(12).reshape((3, 4))
print(F.one_hot(ids.T, 16).shape)           # (4, 3, 16): time steps first

counting = torch.arange(240) % n_symbols
noise = torch.randint(0, n_symbols, (240,))
text = torch.where(torch.rand(240) < 0.2, noise, counting)


def windows(text, rows, window):
    """Split the text into `rows` long lines side by side and walk along them `window` symbols at a time,
    so that each batch continues where the previous one stopped (the hidden state can be carried over)."""
    usable = (len(text) - 1) // rows * rows
    inputs = text[:usable].reshape(rows, -1)
    targets = text[1:usable + 1].reshape(rows, -1)
    for start in range(0, inputs.shape[1] // window * window, window):
        yield inputs[:, start:start + window], targets[:, start:start + window]


class NextSymbol(nn.Module):
    def __init__(self, rnn, n_symbols):
        super(NextSymbol, self).__init__()
        self.rnn = rnn
        self.n_symbols = n_symbols
        self.head = nn.Linear(rnn.hidden_size, n_symbols)

    def forward(self, tokens, state):
        onehot = F.one_hot(tokens.T.long(), self.n_symbols).to(torch.float32)
        outs, state = self.rnn(onehot, state)
        return self.head(outs.reshape((-1, outs.shape[-1]))), state

    def fresh_state(self, rows, device):
        return torch.zeros((self.rnn.num_layers, rows, self.rnn.hidden_size), device=device)


def clip_by_global_norm(model, limit):
    grads = [p.grad for p in model.parameters() if p.requires_grad]
    total = torch.sqrt(sum(torch.sum(g ** 2) for g in grads))
    if total > limit:
        for g in grads:
            g[:] *= limit / total
    return total


device = torch.device('cpu')
cell = nn.RNN(n_symbols, width)
model = NextSymbol(cell, n_symbols)
state = model.fresh_state(rows, device)
print(state.shape)
outs, last = cell(torch.rand(window, rows, n_symbols), state)
print(outs.shape, last.shape)
loss = nn.CrossEntropyLoss()
opt = torch.optim.SGD(model.parameters(), lr=1)
for epoch in range(3):
    state = None
    total, seen = 0.0, 0
    for X, Y in windows(text, rows, window):
        if state is None:
            state = model.fresh_state(X.shape[0], device)
        else:
            state.detach_()                 # keep the values, cut the graph of the previous window
        target = Y.T.reshape(-1)
        scores, state = model(X, state)
        l = loss(scores, target.long()).mean()
        opt.zero_grad()
        l.backward()
        grad_norm = clip_by_global_norm(model, 1)
        opt.step()
        total += l.item() * target.numel()
        seen += target.numel()
    print(f'epoch {epoch}: perplexity {math.exp(total / seen):.4f}, last gradient norm {float(grad_norm):.4f}')


def continue_text(start, extra, model):
    """Feed `start` one symbol at a time, then let the model pick its most likely next symbol `extra` times."""
    state = model.fresh_state(1, device)
    said = [start[0]]
    last_as_input = lambda: torch.tensor([said[-1]], device=device).reshape((1, 1))
    for s in start[1:]:
        _, state = model(last_as_input(), state)
        said.append(s)
    for _ in range(extra):
        scores, state = model(last_as_input(), state)
        said.append(int(scores.argmax(dim=1).reshape(1)))
    return said


print(continue_text([2, 3, 4], 7, model))
print(model.rnn.weight_hh_l0.grad.norm(), model.head.bias.grad)
