# 모델 들여다보기: 3x3 흑백 그림을 두 부류로 나누는 작은 모델을 만들고, 층을 하나씩 통과시켜 본 뒤
# 매개변수의 이름과 크기, state_dict, 자식 모듈을 출력하고 새 모델에 불러옵니다.
import torch
from torch import nn

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print(f"장치: {device}")


class TwoWay(nn.Module):
    """3x3 그림을 펼쳐서(9개 값) 선형층 세 개에 통과시킵니다. 층 사이에는 ReLU."""

    def __init__(self, width=7):
        super().__init__()
        self.unroll = nn.Flatten()
        self.body = nn.Sequential(nn.Linear(9, width), nn.ReLU(),
                                  nn.Linear(width, width), nn.ReLU(),
                                  nn.Linear(width, 2))

    def forward(self, picture):
        return self.body(self.unroll(picture))


model = TwoWay().to(device)
print(model)
samples = torch.rand(4, 3, 3)
print(samples.size())
unrolled = model.unroll(samples)             # 모델 안의 층도 따로 불러 쓸 수 있습니다
print(unrolled.size())
first = model.body[0](unrolled)
print(f"첫 선형층: {first}\n")
print(f"ReLU 다음: {model.body[1](first)}\n")
probs = nn.Softmax(dim=1)(model(samples.to(device)))
print(f"부류별 확률: {probs}")
print(f"고른 부류: {probs.argmax(1)}")
for name, param in model.named_parameters():
    print(f"{name} | 크기 {tuple(param.size())} | 앞의 두 행 {param[:2]} \n")

sd = model.state_dict()
print(type(sd).__name__, list(sd.keys()))
for k, v in sd.items():
    print(k, tuple(v.shape), v.dtype, v.requires_grad)
print(sd['body.4.bias'])
print(sum(p.numel() for p in model.parameters()), sum(p.numel() for p in model.parameters() if p.requires_grad))
print([n for n, _ in model.named_children()], [n for n, _ in model.named_modules()])
print(model.body[2])
copy = TwoWay()
print(copy.load_state_dict(sd))
print(torch.equal(copy(samples), model(samples)))
model.eval()
with torch.no_grad():
    print(model(samples).argmax(dim=1))
