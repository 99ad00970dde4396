# 신경망 모델 구성하기: nn.Module을 상속한 모델의 구조, 매개변수 이름과 크기, state_dict를 출력해 봅니다.
import torch
from torch import nn

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print(f"Using {device} device")


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(4 * 4, 10),
            nn.ReLU(),
            nn.Linear(10, 10),
            nn.ReLU(),
            nn.Linear(10, 3),
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits


model = NeuralNetwork().to(device)
print(model)
X = torch.rand(1, 4, 4, device=device)
logits = model(X)
pred_probab = nn.Softmax(dim=1)(logits)
y_pred = pred_probab.argmax(1)
print(f"예측된 클래스: {y_pred}")
input_image = torch.rand(3, 4, 4)
print(input_image.size())
flat_image = nn.Flatten()(input_image)
print(flat_image.size())
hidden1 = nn.Linear(in_features=16, out_features=5)(flat_image)
print(f"ReLU 이전: {hidden1}\n\n")
hidden1 = nn.ReLU()(hidden1)
print(f"ReLU 이후: {hidden1}")
print(f"모델 구조: {model}\n\n")
for name, param in model.named_parameters():
    print(f"계층: {name} | 크기: {param.size()} | 값 : {param[:2]} \n")
sd = model.state_dict()
print(type(sd).__name__, list(sd.keys()))
for k, v in sd.items():
    print(k, tuple(v.shape), v.dtype, v.requires_grad)
print(sd['linear_relu_stack.4.bias'])
print(sum(p.numel() for p in model.parameters()), sum(p.numel() for p in model.parameters() if p.requires_grad))
print([n for n, _ in model.named_children()], [n for n, _ in model.named_modules()])
print(model.linear_relu_stack[0])
new_model = NeuralNetwork()
print(new_model.load_state_dict(sd))
print(torch.equal(new_model(X), model(X)))
model.eval()
with torch.no_grad():
    print(model(input_image).argmax(dim=1))
