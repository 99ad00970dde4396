# title: 손으로 풀어 보는 연쇄 법칙 (한국어)
# summary: A Korean notebook: the autograd tutorial's gradient worked out on paper, factor by factor, and checked against backward: the formulas in the drawing, the chain-rule line of each player step, vᵀJ for a vector output, a Jacobian, and a quiz where you predict each gradient.
# language: ko

# %% [markdown]
"""
# 손으로 풀어 보는 연쇄 법칙

`out.backward()` 한 줄이면 `x.grad`가 채워집니다. 이 노트북에서는 같은 값을 종이와 연필로 하는 미분으로
직접 구한 다음, backward가 정확히 같은 일을 했는지 확인합니다. backward는 출력에서 잎 텐서 쪽으로 거슬러
가면서 연산마다 작은 국소 미분값을 하나씩 곱합니다. 이것이 **연쇄 법칙**(chain rule)입니다.
"""

# %% tags=["nbval-check-output"]
import gradlab as torch
from gradlab import viz

# %% [markdown]
"""
## 예제

autograd 튜토리얼은 1로 채운 2×2 텐서에서 시작해 다음 그래프를 만듭니다.
"""

# %% tags=["nbval-check-output"]
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
print(out)

# %% [markdown]
"""
원소 하나 $x_i$에 대해 풀어 쓰면 다음과 같습니다(원소는 네 개이고 모두 1입니다).

$$o = \frac{1}{4}\sum_{i} z_i, \qquad z_i = 3\,y_i^2, \qquad y_i = x_i + 2,
\qquad\text{따라서}\qquad z_i = 3\,(x_i + 2)^2 .$$

$x_i$가 움직일 때 $o$가 얼마나 변하는지 알려면, 연쇄 법칙에 따라 각 단계가 다음 단계를 바꾸는 정도를 모두 곱하면 됩니다.

$$\frac{\partial o}{\partial x_i}
= \frac{\partial o}{\partial z_i}\cdot\frac{\partial z_i}{\partial y_i}\cdot\frac{\partial y_i}{\partial x_i}
= \frac{1}{4}\cdot 6\,y_i\cdot 1 = \frac{3}{2}\,(x_i + 2) = \frac{3}{2}\cdot 3 = 4.5 .$$
"""

# %% [markdown]
"""
## 국소 미분값을 하나씩 코드로

한 줄에 인수 하나씩입니다. `y.detach()`는 아무것도 기록하지 않고 `y`의 값만 돌려줍니다. 그래프와 상관없는
보통 숫자로 계산하려는 것입니다.
"""

# %% tags=["nbval-check-output"]
do_dz = torch.ones(2, 2) / 4      # o는 숫자 4개의 평균: 각각 1/4씩 기여
dz_dy = 6 * y.detach()            # z = 3 y²이므로 dz/dy = 6 y = 18
dy_dx = torch.ones(2, 2)          # y = x + 2이므로 dy/dx = 1
print(do_dz)
print(dz_dy)
print(dy_dx)

# %% [markdown]
"""
세 인수를 곱하면 변화도가 되고, 위에서 구한 식 $\frac{3}{2}(x_i + 2)$와도 같습니다. 그다음 backward에게
같은 계산을 맡겨 비교합니다. `torch.equal`은 모든 원소가 같을 때만 `True`입니다.
"""

# %% tags=["nbval-check-output"]
by_hand = do_dz * dz_dy * dy_dx
print(by_hand)
print(3 / 2 * (x.detach() + 2))

# %% tags=["nbval-check-output"]
out.backward()
print(x.grad)
print(torch.equal(x.grad, by_hand))

# %% [markdown]
"""
## 그림에 적힌 미분 공식

`grad_fn` 노드는 자기 연산의 미분만 알고 나머지는 모릅니다. `formulas=True`를 주면 그림에 입력마다 그 공식이
적힙니다. `grad`는 위에서 들어오는 변화도이고, `grad_self` / `grad_other`는 노드가 첫째 / 둘째 입력에 보내는
변화도입니다. 위의 backward가 그래프를 이미 써 버렸으므로 그래프를 다시 만듭니다.
"""

# %%
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
viz.set_language("ko")   # 그림, 재생기, 퀴즈의 설명을 한국어로
viz.draw(out, names=locals(), formulas=True)

# %% [markdown]
"""
그래프에서는 가운데 인수가 둘로 나뉩니다. `y * y * 3`은 `(y * y) * 3`이므로, `MulBackward0` 하나는 상수 3을
곱하고, 다른 하나(`y * y`)는 한 입력에 `grad * other`를, 다른 입력에 `grad * self`를 보냅니다. 두 입력이 모두
`y`이므로 `y`는 그 **합** `grad · y + grad · y = 2y · grad`를 받습니다. 모두 합치면 $3 \cdot 2y = 6y$,
손으로 구한 인수와 같습니다.
"""

# %% [markdown]
"""
## 인수들이 곱해지는 모습 보기

backward를 한 단계씩 재생해 보세요. 각 설명 아래 **연쇄 법칙:** 으로 시작하는 줄이 그 노드의 공식에 이번
단계의 숫자를 넣은 것입니다. 먼저 `0.25`, 그다음 `0.25 * 3 = 0.75`, 그다음 `0.75 * 3 = 2.25`를 `y`에 두 번
보내고(합하면 4.5), 마지막으로 `x`에 `grad = 4.5`를 보냅니다.
"""

# %%
viz.animate_backward(out, names=locals())

# %% [markdown]
"""
같은 줄을 글자로 볼 수도 있습니다. `viz.record_backward`는 재생기처럼 실제로 backward를 실행하고 그 단계들
(프레임)을 돌려줍니다. `frame.rule`이 각 단계의 연쇄 법칙 줄입니다. 시작 단계와, 받은 값을 저장하기만 하는
`AccumulateGrad` 단계에서는 비어 있습니다. 새 그래프로 한 번 더 해 봅니다.
"""

# %% tags=["nbval-check-output"]
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
frames = viz.record_backward(out, names=locals())
for frame in frames:
    if frame.rule:
        print(frame.node.title.ljust(14), frame.rule.strip())
print(x.grad)

# %% [markdown]
"""
## 출력이 벡터일 때: vᵀJ

튜토리얼의 두 번째 예제는 난수 벡터를 노름이 1000을 넘을 때까지 계속 두 배로 만듭니다. `manual_seed(0)`을
넣어서 매번 같은 수가 나오게 했습니다(PyTorch에서 시드 0으로 뽑는 수와 같습니다).
"""

# %% tags=["nbval-check-output"]
torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
y = x * 2
while y.data.norm() < 1000:
    y = y * 2
print(y)

# %% [markdown]
"""
`y`는 원소가 세 개이므로 "`y`의 미분"이 하나가 아니라 $\partial y_i/\partial x_j$ 아홉 개, 즉 야코비안 행렬
$J$입니다. `y.backward(v)`는 $J$를 만들지 않습니다. 1 대신 벡터 `v`로 연쇄 법칙을 시작해서 곱
$v^\top J$로 끝납니다. `viz.vjp`가 세 부분을 나란히 보여 줍니다.
"""

# %% tags=["nbval-check-output"]
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
viz.vjp(y, x, v)

# %% tags=["nbval-check-output"]
y.backward(v)
print(x.grad)

# %% [markdown]
"""
손으로 계산하면: $y_i$는 $x_i$를 아홉 번 두 배로 한 값, 즉 $y_i = 512\,x_i$입니다. 그래서
$\partial y_i/\partial x_i = 512$이고, $j \ne i$이면 $\partial y_i/\partial x_j = 0$입니다($y_i$는 $x_j$를 쓰지
않습니다). 이 $J$를 직접 적고 곱해 봅니다.
"""

# %% tags=["nbval-check-output"]
scale = y.data[0] / x.data[0]     # y가 커진 배율: 2 ** 9
J = torch.eye(3) * scale
print(J)
print(v @ J)
print(torch.equal(x.grad, v @ J))

# %% [markdown]
"""
## 함수의 야코비안 행렬

`viz.jacobian(f, x)`는 어떤 함수든 $J$를 계산하고 행(출력)과 열(입력)에 이름표를 붙여 보여 줍니다.
원소별 제곱 $y = t \cdot t$에서 출력 $y_i = t_i^2$는 $t_i$ 하나에만 의존합니다. 그래서 대각선 밖의 값은 모두
0이고, 대각선에는 $2\,t_i = 2, 4, 6$이 있습니다.
"""

# %% tags=["nbval-check-output"]
viz.jacobian(lambda t: t * t, torch.tensor([1., 2., 3.]))

# %% [markdown]
"""
원소들을 섞으면 0이 사라집니다. $y = t \cdot \sum_j t_j$에서는 모든 출력이 모든 입력을 씁니다.
"""

# %% tags=["nbval-check-output"]
viz.jacobian(lambda t: t * t.sum(), torch.tensor([1., 2., 3.]))

# %% [markdown]
"""
## 직접 해 보기: 변화도 예측하기

튜토리얼의 그래프를 이번에는 퀴즈로 풉니다. 단계마다 노드가 보낼 변화도를 연쇄 법칙으로 구해서 입력하고
(`0.25`처럼 숫자 하나, 또는 텐서 전체) **확인**을 누르세요. 맞았는지 틀렸는지와 함께 공식을 보여 줍니다.
답을 확인하려면 실행 중인 커널이 필요하므로 먼저 셀을 실행하세요(파일에서 연 노트북에서는 그 전까지
그래프만 보입니다).
"""

# %%
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
viz.animate_backward(out, names=locals(), quiz=True)
