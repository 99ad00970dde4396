# Sequence regression with an LSTM: predict the next value of a sine wave.
import math

import torch
from torch import nn

torch.manual_seed(1)

t = torch.linspace(0, 4 * math.pi, 41)
wave = torch.sin(t)
seq_len = 8
inputs = torch.stack([wave[i:i + seq_len] for i in range(30)]).unsqueeze(-1)   # (30, 8, 1)
targets = torch.stack([wave[i + seq_len] for i in range(30)]).unsqueeze(-1)    # (30, 1)
print("inputs", inputs.shape, "targets", targets.shape)


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(input_size=1, hidden_size=12, num_layers=2, batch_first=True)
        self.fc = nn.Linear(12, 1)

    def forward(self, x):
        out, (h, c) = self.lstm(x)
        return self.fc(out[:, -1, :])


model = Forecaster()
print(model)
print([name for name, _ in model.lstm.named_parameters()])
print("weight_ih_l0:", model.lstm.weight_ih_l0.shape, "weight_hh_l1:", model.lstm.weight_hh_l1.shape)

out, (h, c) = model.lstm(inputs[:2])
print("output", out.shape, "h_n", h.shape, "c_n", c.shape)
print("h_n grad_fn:", type(h.grad_fn).__name__)

loss_fn = nn.MSELoss()
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for epoch in range(40):
    pred = model(inputs)
    loss = loss_fn(pred, targets)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 10 == 9:
        print(f"epoch {epoch + 1}: mse {loss.item():.5f}")

with torch.no_grad():
    print("prediction:", model(inputs[:3]).squeeze(-1))
    print("target:    ", targets[:3].squeeze(-1))

# bidirectional, unbatched input
bi = nn.LSTM(1, 4, bidirectional=True)
o, (h, c) = bi(inputs[0])
print(bi, o.shape, h.shape)

try:
    model.lstm(torch.randn(2, 8, 3))
except RuntimeError as e:
    print("RuntimeError:", e)
