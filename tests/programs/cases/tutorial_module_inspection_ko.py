# 신경망 모델 구성하기: nn.Module을 상속한 모델의 구조, 매개변수 이름과 크기, state_dict를 출력해 봅니다.
import torch
from torch import nn

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print(f"Using {device} device")


class TinyClassifier(nn.Module):
    """4x4 크기의 작은 흑백 이미지를 세 부류로 나누는 모델 (펼친 뒤 선형층 세 개, 사이에 ReLU)."""

    def __init__(self, hidden=10):
        super().__init__()
        self.flat = nn.Flatten()
        self.layers = nn.Sequential(nn.Linear(16, hidden), nn.ReLU(),
                                    nn.Linear(hidden, hidden), nn.ReLU(),
                                    nn.Linear(hidden, 3))

    def forward(self, image):
        return self.layers(self.flat(image))


model = TinyClassifier().to(device)
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
print(sd['layers.4.bias'])
print(sum(p.numel() for p in model.parameters()), sum(p.numel() for p in model.parameters() if p.requires_grad))
print([n for n, _ in model.named_children()], [n for n, _ in model.named_modules()])
print(model.layers[0])
new_model = TinyClassifier()
print(new_model.load_state_dict(sd))
print(torch.equal(new_model(X), model(X)))
model.eval()
with torch.no_grad():
    print(model(input_image).argmax(dim=1))
