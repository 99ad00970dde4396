# 신경망 모델 구성하기 (building a network): layers, a forward pass, softmax, the model's parameters.
import torch
from torch import nn

torch.manual_seed(7)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print(f"Using {device} device")


class TinyNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.stack = nn.Sequential(
            nn.Linear(6 * 6, 32),
            nn.ReLU(),
            nn.Linear(32, 16),
            nn.ReLU(),
            nn.Linear(16, 4),
        )

    def forward(self, x):
        return self.stack(self.flatten(x))


model = TinyNet().to(device)
print(model)
X = torch.rand(1, 6, 6, device=device)
logits = model(X)
pred_probab = nn.Softmax(dim=1)(logits)
y_pred = pred_probab.argmax(1)
print(f"Predicted class: {y_pred}")
images = torch.rand(3, 6, 6)
flat = nn.Flatten()(images)
print(flat.size())
layer1 = nn.Linear(in_features=36, out_features=8)
hidden1 = layer1(flat)
print(hidden1.size())
print(f"Before ReLU: {hidden1}\n\n")
hidden1 = nn.ReLU()(hidden1)
print(f"After ReLU: {hidden1}")
print(f"Model structure: {model}\n\n")
for name, param in model.named_parameters():
    print(f"Layer: {name} | Size: {param.size()} | Values : {param[:2]} \n")
