# The regression again, this time with the library doing the work: a TensorDataset and a shuffling
# DataLoader, an nn.Sequential holding one Linear layer, MSELoss and the SGD optimizer.
# Made-up data: a plant's growth in a week (mm) from its hours of sun and its water (both standardised).
import torch
from torch import nn
from torch.utils import data

torch.manual_seed(4)
sun_water = torch.tensor([0.8, 1.3])
inputs = torch.normal(0, 1, (96, 2))
growth = (inputs @ sun_water - 0.4 + torch.normal(0, 0.02, (96,))).reshape(-1, 1)
loader = data.DataLoader(data.TensorDataset(inputs, growth), batch_size=12, shuffle=True)
print(next(iter(loader)))

model = nn.Sequential(nn.Linear(2, 1))
model[0].weight.data.normal_(0, 0.01)         # start near zero, as in the hand-written version
model[0].bias.data.fill_(0)
mse = nn.MSELoss()
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for epoch in range(1, 5):
    for xb, yb in loader:
        batch_loss = mse(model(xb), yb)
        opt.zero_grad()
        batch_loss.backward()
        opt.step()
    whole = mse(model(inputs), growth)
    print(f'epoch {epoch}, loss {whole:f}')
learned = model[0].weight.data
print('weights off by:', sun_water - learned.reshape(sun_water.shape))
print('bias off by:', -0.4 - model[0].bias.data)
print(model.state_dict())
