# Unrolling recurrent cells by hand, as textbooks do before introducing nn.RNN.
import torch
from torch import nn

torch.manual_seed(3)

batch, steps, n_in, n_hidden = 2, 4, 3, 5
xs = torch.randn(steps, batch, n_in)

cell = nn.RNNCell(n_in, n_hidden)
print(cell, cell.weight_ih.shape, cell.weight_hh.shape)
h = torch.zeros(batch, n_hidden)
for x in xs:
    h = cell(x, h)
print("RNNCell final h:\n", h)
print(type(h.grad_fn).__name__)

# the same computation written out with the cell's own parameters
h2 = torch.zeros(batch, n_hidden)
for x in xs:
    h2 = torch.tanh(x @ cell.weight_ih.T + cell.bias_ih + h2 @ cell.weight_hh.T + cell.bias_hh)
print("matches by hand:", torch.allclose(h, h2))

lstm_cell = nn.LSTMCell(n_in, n_hidden)
hx, cx = torch.zeros(batch, n_hidden), torch.zeros(batch, n_hidden)
outputs = []
for x in xs:
    hx, cx = lstm_cell(x, (hx, cx))
    outputs.append(hx)
stacked = torch.stack(outputs)
print("LSTMCell outputs:", stacked.shape)
print(stacked[-1])
stacked.sum().backward()
print("weight_ih grad:", lstm_cell.weight_ih.grad.shape, f"{lstm_cell.weight_ih.grad.abs().sum().item():.3f}")

gru_cell = nn.GRUCell(n_in, n_hidden, bias=False)
print(gru_cell)
h = gru_cell(xs[0])          # no hidden state: zeros
print(h, type(h.grad_fn).__name__)
print(gru_cell(xs[0][0]).shape)    # one sample without a batch dimension

relu_cell = nn.RNNCell(n_in, n_hidden, nonlinearity="relu")
print(relu_cell, relu_cell(xs[0]).min() >= 0)

try:
    cell(torch.randn(batch, 4), h)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    cell(xs[0], torch.zeros(3, n_hidden))
except RuntimeError as e:
    print("RuntimeError:", e)
