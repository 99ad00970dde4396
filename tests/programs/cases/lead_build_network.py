# Layers one at a time, then together: flatten a few 5x5 pictures, pass them through a Linear and a ReLU and
# look at the numbers, then assemble a model for four classes and read its guesses and its parameters.
import torch
from torch import nn

torch.manual_seed(7)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print(f"Running on {device}")

pictures = torch.rand(2, 5, 5)
rows = nn.Flatten()(pictures)                # (2, 5, 5) -> (2, 25): one row of numbers per picture
print(rows.size())
mix = nn.Linear(in_features=25, out_features=6)
mixed = mix(rows)
print(mixed.size())
print(f"Linear output: {mixed}\n")
print(f"after ReLU (negatives become 0): {nn.ReLU()(mixed)}\n")


class FourWay(nn.Module):
    def __init__(self):
        super().__init__()
        self.to_rows = nn.Flatten()
        self.layers = nn.Sequential(
            nn.Linear(25, 20),
            nn.ReLU(),
            nn.Linear(20, 10),
            nn.ReLU(),
            nn.Linear(10, 4),
        )

    def forward(self, x):
        return self.layers(self.to_rows(x))


model = FourWay().to(device)
print(model)
scores = model(pictures.to(device))
chances = nn.Softmax(dim=1)(scores)
print(chances)
print(f"Guessed classes: {chances.argmax(1)}")
for name, param in model.named_parameters():
    print(f"{name}: size {param.size()}, first rows {param[:2]}\n")
