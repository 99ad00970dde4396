"""The player's words in English, Korean and Chinese.

`viz.set_language("ko")` (or `animate_backward(..., lang="ko")`) switches the captions, the legend, the
buttons and the graph's labels. The terms are the ones the Korean and Chinese PyTorch tutorials use:
변화도 / 梯度 (gradient), 역전파 / 反向传播 (backpropagation), 잎 텐서 / 叶子张量 (leaf tensor),
누적 / 累加 (accumulate). Identifiers stay as PyTorch spells them (backward(), AccumulateGrad, grad_fn,
.grad, None, MulBackward0), as they do in those tutorials.
"""
import contextlib

LANGUAGES = ("en", "ko", "zh")
_language = "en"          # the global setting (set_language)
_active = None            # the language of the player being built right now (using)

TEXT = {
    # values
    "everywhere": {"en": "{v} everywhere", "ko": "{v} (모든 원소)", "zh": "{v}（所有元素）"},
    "range": {"en": "values from {lo} to {hi} (shape {shape})", "ko": "{lo}부터 {hi}까지의 값 (모양 {shape})",
              "zh": "从 {lo} 到 {hi} 的值（形状 {shape}）"},
    "shape": {"en": "shape {shape}", "ko": "모양 {shape}", "zh": "形状 {shape}"},
    "empty": {"en": "empty", "ko": "비어 있음", "zh": "空"},
    "and_values": {"en": " and ", "ko": " 및 ", "zh": " 和 "},
    # the start
    "start_implicit_named": {
        "en": "backward() starts at {name} (call it L): {g} = {value}, because {name} changes exactly as fast as itself.",
        "ko": "backward()는 {name}에서 시작합니다(이것을 L이라고 부릅시다): {g} = {value}입니다. "
              "{name}은(는) 자기 자신과 정확히 같은 빠르기로 변하기 때문입니다.",
        "zh": "backward() 从 {name} 开始（把它记作 L）：{g} = {value}，因为 {name} 的变化和它自己一样快。"},
    "start_given_named": {
        "en": "backward() starts at {name} with the gradient you passed: {value}.",
        "ko": "backward()는 {name}에서 시작합니다. 시작 변화도는 직접 넘겨 준 값 {value}입니다.",
        "zh": "backward() 从 {name} 开始，起始梯度是你传入的 {value}。"},
    "start_implicit": {
        "en": "backward() starts at the output (call it L) with the gradient dL/dL = {value}.",
        "ko": "backward()는 출력(L이라고 부릅시다)에서 시작합니다. 시작 변화도는 dL/dL = {value}입니다.",
        "zh": "backward() 从输出（记作 L）开始，起始梯度 dL/dL = {value}。"},
    "start_given": {
        "en": "backward() starts at the output with the gradient you passed: {value}.",
        "ko": "backward()는 출력에서 시작합니다. 시작 변화도는 직접 넘겨 준 값 {value}입니다.",
        "zh": "backward() 从输出开始，起始梯度是你传入的 {value}。"},
    # a node's step
    "got_named": {"en": "{own} = {value}", "ko": "{own} = {value}", "zh": "{own} = {value}"},
    "got_unnamed": {"en": "the gradient of its output, {value},", "ko": "출력의 변화도 {value}",
                    "zh": "输出的梯度 {value}"},
    "nothing": {"en": "nothing", "ko": "없음", "zh": "无"},
    "acc_nothing": {
        "en": "AccumulateGrad received {got}; nothing is written to {leaf}.grad here.",
        "ko": "AccumulateGrad가 {got}을(를) 받았습니다. 여기서는 {leaf}.grad에 아무것도 쓰지 않습니다.",
        "zh": "AccumulateGrad 收到 {got}；这里不会写入 {leaf}.grad。"},
    "acc_store": {
        "en": "AccumulateGrad received {got} and stores it: {leaf}.grad was None, so now {leaf}.grad = {new}.",
        "ko": "AccumulateGrad가 {got}을(를) 받아 저장합니다. {leaf}.grad가 None이었으므로 이제 {leaf}.grad = {new}입니다.",
        "zh": "AccumulateGrad 收到 {got} 并把它存下来：{leaf}.grad 原来是 None，所以现在 {leaf}.grad = {new}。"},
    "acc_add": {
        "en": "AccumulateGrad received {got} and ADDS it to what {leaf}.grad already held: {sum}.",
        "ko": "AccumulateGrad가 {got}을(를) 받아 {leaf}.grad에 이미 있던 값에 더합니다(누적): {sum}.",
        "zh": "AccumulateGrad 收到 {got}，并把它加到 {leaf}.grad 原有的值上（累加）：{sum}。"},
    "fn_received": {"en": "{title} received {got}", "ko": "{title}이(가) {got}을(를) 받았습니다",
                    "zh": "{title} 收到 {got}"},
    "nothing_to_send": {
        "en": " and has nothing to send (none of its inputs needs a gradient).",
        "ko": ". 보낼 것이 없습니다(변화도가 필요한 입력이 없습니다).",
        "zh": "，没有要传出去的梯度（它的输入都不需要梯度）。"},
    "sends_intro": {"en": " and ", "ko": ". ", "zh": "，"},
    "sends_join": {"en": "; and ", "ko": "; 또 ", "zh": "；并且"},
    "send_one": {"en": "sends {what}{value} to {dest}", "ko": "{dest}에 {what}{value}을(를) 보냅니다",
                 "zh": "把 {what}{value} 传给 {dest}"},
    "dest_grad_fn": {"en": "{title} (the grad_fn of {tensor})", "ko": "{title}({tensor}의 grad_fn)",
                     "zh": "{title}（{tensor} 的 grad_fn）"},
    "send_many": {
        "en": "sends {what}{each} to {both}; {same} {who}, so {who}'s gradient is their sum, {total}",
        "ko": "{both}에 {what}{each}을(를) 보냅니다. {same} {who}이므로 {who}의 변화도는 이들의 합 {total}입니다",
        "zh": "把 {what}{each} 传给{both}；{same} {who}，所以 {who} 的梯度是它们的和 {total}"},
    "both_inputs": {"en": "both of its inputs", "ko": "두 입력 모두", "zh": "它的两个输入"},
    "n_inputs": {"en": "{n} of its inputs", "ko": "입력 {n}개", "zh": "它的 {n} 个输入"},
    "both_are": {"en": "both are", "ko": "둘 다", "zh": "两者都是"},
    "all_are": {"en": "all are", "ko": "모두", "zh": "它们都是"},
    "output_of": {"en": "the output of {title}", "ko": "{title}의 출력", "zh": "{title} 的输出"},
    "one_constant": {"en": "; its other input is a constant and gets no gradient",
                     "ko": "; 나머지 입력 하나는 상수라서 변화도를 받지 않습니다",
                     "zh": "；它的另一个输入是常量，不接收梯度"},
    "n_constants": {"en": "; {n} of its inputs are constants and get no gradient",
                    "ko": "; 입력 중 {n}개는 상수라서 변화도를 받지 않습니다",
                    "zh": "；它有 {n} 个输入是常量，不接收梯度"},
    "waits_one": {"en": "; {title} now holds {total} and waits for 1 more contribution",
                  "ko": "; {title}은(는) 지금 {total}을(를) 가지고 있고 변화도 1개를 더 기다립니다",
                  "zh": "；{title} 现在持有 {total}，还要再等 1 份梯度"},
    "waits_n": {"en": "; {title} now holds {total} and waits for {n} more contributions",
                "ko": "; {title}은(는) 지금 {total}을(를) 가지고 있고 변화도 {n}개를 더 기다립니다",
                "zh": "；{title} 现在持有 {total}，还要再等 {n} 份梯度"},
    "end": {"en": ".", "ko": ".", "zh": "。"},
    # the chain rule at a node: its formula per input, with this step's numbers (viz/formulas.py)
    "rule": {"en": " Chain rule: {lines}.", "ko": " 연쇄 법칙: {lines}.", "zh": " 链式法则：{lines}。"},
    "rule_join": {"en": "; ", "ko": "; ", "zh": "；"},
    "paths": {"en": " The whole chain rule: multiply the local factors along each of the {n} paths from the output "
                    "to here and add the paths: {terms} = {total}.",
              "ko": " 연쇄 법칙 전체: 출력에서 여기까지 오는 {n}개의 경로마다 국소 인자를 곱하고, 경로들을 더합니다: "
                    "{terms} = {total}.",
              "zh": " 完整的链式法则：沿着从输出到这里的 {n} 条路径，把每条路径上的局部因子相乘，再把各路径相加：{terms} = {total}。"},
    "shape_values": {"en": "({shape} values)", "ko": "({shape}개의 값)", "zh": "（{shape} 个值）"},
    "summed_to": {"en": "{result} (summed from {shape} to the input's shape)",
                  "ko": "{result} ({shape}을(를) 입력의 모양으로 더함)", "zh": "{result}（从 {shape} 求和到输入的形状）"},
    # the text column
    "step_start": {"en": "start", "ko": "시작", "zh": "开始"},
    "step_of": {"en": "step {i} of {n}", "ko": "{n}단계 중 {i}단계", "zh": "第 {i} 步，共 {n} 步"},
    "from_earlier": {"en": " (from an earlier backward)", "ko": " (이전 backward에서 쌓인 값)",
                     "zh": "（来自之前的一次 backward）"},
    "nothing_yet": {"en": " (nothing yet)", "ko": " (아직 없음)", "zh": "（还没有）"},
    "store_g": {"en": " (None + g means: store g)", "ko": " (None + g는 g를 그대로 저장한다는 뜻)",
                "zh": "（None + g 的意思是：直接存入 g）"},
    "received": {"en": "received: {value}", "ko": "받은 변화도: {value}", "zh": "收到的梯度：{value}"},
    "input_to": {"en": "input {nr} → {title}: {value}", "ko": "입력 {nr} → {title}: {value}",
                 "zh": "输入 {nr} → {title}：{value}"},
    "buffer": {"en": "buffer of {title}: {text} ({state})", "ko": "{title}의 버퍼: {text} ({state})",
               "zh": "{title} 的缓冲区：{text}（{state}）"},
    "complete": {"en": "complete: it can run now", "ko": "다 모였습니다: 이제 실행할 수 있습니다",
                 "zh": "已收齐：现在可以执行"},
    "waits_for": {"en": "waits for {n} more", "ko": "{n}개를 더 기다립니다", "zh": "还要再等 {n} 份"},
    # legend and table
    "running_now": {"en": "running now", "ko": "실행 중", "zh": "正在执行"},
    "collecting": {"en": "collecting gradients", "ko": "변화도를 모으는 중", "zh": "正在收集梯度"},
    "done": {"en": "done", "ko": "완료", "zh": "已完成"},
    "sent_now": {"en": "gradient sent this step", "ko": "이번 단계에 보낸 변화도", "zh": "本步传出的梯度"},
    "col_node": {"en": "node", "ko": "노드", "zh": "节点"},
    "col_state": {"en": "state", "ko": "상태", "zh": "状态"},
    # the graph's labels
    "start_of_backward": {"en": "start of backward", "ko": "역전파 시작", "zh": "反向传播起点"},
    "into_grad": {"en": "AccumulateGrad\ninto {leaf}.grad", "ko": "AccumulateGrad\n{leaf}.grad에 누적",
                  "zh": "AccumulateGrad\n累加到 {leaf}.grad"},
    "grad_fn_of": {"en": "(grad_fn of {tensor})", "ko": "({tensor}의 grad_fn)", "zh": "（{tensor} 的 grad_fn）"},
    "leaf_box": {"en": "(leaf)", "ko": "(잎 텐서)", "zh": "（叶子张量）"},
    "the_leaf": {"en": "the leaf", "ko": "잎 텐서", "zh": "叶子张量"},
    "leaf_n": {"en": "leaf {i}", "ko": "잎 텐서 {i}", "zh": "叶子张量 {i}"},
    "output": {"en": "output", "ko": "출력", "zh": "输出"},
    # the controls
    "play": {"en": "Play", "ko": "재생", "zh": "播放"},
    "pause": {"en": "pause", "ko": "일시 정지", "zh": "暂停"},
    "prev": {"en": "◀ prev", "ko": "◀ 이전", "zh": "◀ 上一步"},
    "next": {"en": "next ▶", "ko": "다음 ▶", "zh": "下一步 ▶"},
    "step": {"en": "step", "ko": "단계", "zh": "步骤"},
    "prev_tip": {"en": "previous step (without a kernel: drag the slider or use the arrow keys)",
                 "ko": "이전 단계 (커널 없이: 슬라이더를 끌거나 화살표 키를 쓰세요)",
                 "zh": "上一步（没有内核时：拖动滑块或使用方向键）"},
    "next_tip": {"en": "next step (without a kernel: drag the slider or use the arrow keys)",
                 "ko": "다음 단계 (커널 없이: 슬라이더를 끌거나 화살표 키를 쓰세요)",
                 "zh": "下一步（没有内核时：拖动滑块或使用方向键）"},
    "stepper_tip": {"en": "step: its arrows move one frame, also without a kernel",
                    "ko": "단계: 화살표로 한 단계씩 움직입니다(커널 없이도)",
                    "zh": "步骤：用箭头一次移动一步（没有内核也可以）"},
    "run_to_play": {"en": "Run this cell to play backward step by step ({n} steps): the player needs the running kernel.",
                    "ko": "이 셀을 실행하면 역전파를 한 단계씩 재생합니다({n}단계). 재생기는 실행 중인 커널이 필요합니다.",
                    "zh": "运行这个单元即可逐步播放反向传播（共 {n} 步）：播放器需要正在运行的内核。"},
    "alt": {"en": "the graph of backward, {n} steps", "ko": "역전파 그래프, {n}단계", "zh": "反向传播的计算图，共 {n} 步"},
    "page_title": {"en": "gradlab: backward, step by step", "ko": "gradlab: 한 단계씩 보는 역전파",
                   "zh": "gradlab：逐步查看反向传播"},
    "step_slash": {"en": "step {i} / {n}", "ko": "단계 {i} / {n}", "zh": "步骤 {i} / {n}"},
    # Jacobians and vector-Jacobian products (viz/jacobian.py): 야코비안 행렬 / 雅可比矩阵 (Jacobian),
    # 벡터-야코비안 곱 / 向量-雅可比积 (vector-Jacobian product), as the tutorials say them
    "jac_title": {"en": "Jacobian of {y} with respect to {x}", "ko": "{x}에 대한 {y}의 야코비안 행렬",
                  "zh": "{y} 对 {x} 的雅可比矩阵"},
    "jac_about": {
        "en": "J has shape {shape}: one row per element of {y} ({rows}), one column per element of {x} ({cols}). "
              "The entry in row ∂{y}[i] and column ∂{x}[j] is ∂{y}[i]/∂{x}[j]: how fast {y}[i] changes when only "
              "{x}[j] moves.",
        "ko": "J의 모양은 {shape}입니다. {y}의 원소마다 한 행({rows}개), {x}의 원소마다 한 열({cols}개)이 있습니다. "
              "∂{y}[i] 행, ∂{x}[j] 열의 값은 ∂{y}[i]/∂{x}[j], 즉 {x}[j]만 움직일 때 {y}[i]가 변하는 빠르기입니다.",
        "zh": "J 的形状是 {shape}：{y} 的每个元素占一行（共 {rows} 行），{x} 的每个元素占一列（共 {cols} 列）。"
              "∂{y}[i] 行、∂{x}[j] 列的值是 ∂{y}[i]/∂{x}[j]，即只改变 {x}[j] 时 {y}[i] 变化的快慢。"},
    "jac_flat": {
        "en": "{name} has shape {shape}: its elements are numbered in row-major order, as {name}.reshape(-1) "
              "lists them, and each label shows the full index.",
        "ko": "{name}의 모양은 {shape}입니다. 원소는 {name}.reshape(-1)이 나열하는 행 우선 순서로 번호를 매기고, "
              "이름표에는 전체 인덱스를 적었습니다.",
        "zh": "{name} 的形状是 {shape}：它的元素按行优先顺序编号，也就是 {name}.reshape(-1) 列出的顺序，"
              "标签上写的是完整的下标。"},
    "jac_truncated": {
        "en": "A large Jacobian: showing {r} of its {rows} rows and {c} of its {cols} columns (⋮ and ⋯ stand "
              "for the rest); .J holds all of it.",
        "ko": "큰 야코비안 행렬이라 {rows}개 행 중 {r}개, {cols}개 열 중 {c}개만 보여 줍니다(⋮와 ⋯가 나머지 "
              "자리입니다). 전체는 .J에 있습니다.",
        "zh": "雅可比矩阵较大：只显示 {rows} 行中的 {r} 行、{cols} 列中的 {c} 列（⋮ 和 ⋯ 代表省略的部分）；"
              "完整的矩阵在 .J 里。"},
    "vjp_title": {"en": "What {call} computes: the vector-Jacobian product vᵀ·J",
                  "ko": "{call}이(가) 계산하는 것: 벡터-야코비안 곱 vᵀ·J",
                  "zh": "{call} 计算的是向量-雅可比积 vᵀ·J"},
    "vjp_player_intro": {"en": "What this backward computes, in one picture: the vector-Jacobian product vᵀ·J.",
                         "ko": "이번 역전파가 계산하는 것을 한눈에 보면, 벡터-야코비안 곱 vᵀ·J입니다.",
                         "zh": "这次反向传播计算的是向量-雅可比积 vᵀ·J，一图看懂："},
    "vjp_implicit": {"en": "{y} has a single element, so v is 1: the gradient backward() starts with when none "
                           "is passed.",
                     "ko": "{y}의 원소가 하나뿐이므로 v는 1입니다. 변화도를 넘기지 않으면 backward()는 이 값으로 "
                           "시작합니다.",
                     "zh": "{y} 只有一个元素，所以 v 是 1：不传入梯度时 backward() 就从它开始。"},
    "vjp_wrt": {"en": "with respect to {x}:", "ko": "{x}에 대해:", "zh": "对 {x}："},
    "vjp_same": {
        "en": "This is exactly what {backward} adds into {x}.grad, and what {grad} returns for {x}: {value}.",
        "ko": "이것이 바로 {backward}가 {x}.grad에 더하는(누적) 값이며, {grad}가 {x}에 대해 돌려주는 값입니다: "
              "{value}.",
        "zh": "这正是 {backward} 累加到 {x}.grad 里的值，也是 {grad} 对 {x} 返回的值：{value}。"},
    "vjp_same_nonleaf": {
        "en": "This is what {grad} returns for {x}: {value}. {backward} passes it on through {x} to the leaves; "
              "{x} is not a leaf, so {x}.grad keeps nothing unless you call {x}.retain_grad() first.",
        "ko": "이것이 {grad}가 {x}에 대해 돌려주는 값입니다: {value}. {backward}는 이 값을 {x}를 거쳐 잎 텐서까지 "
              "전달합니다. {x}는 잎 텐서가 아니므로, 먼저 {x}.retain_grad()를 부르지 않으면 {x}.grad에는 아무것도 "
              "남지 않습니다.",
        "zh": "这是 {grad} 对 {x} 返回的值：{value}。{backward} 会把它经过 {x} 继续传给叶子张量；{x} 不是叶子张量，"
              "除非先调用 {x}.retain_grad()，否则 {x}.grad 里什么也不会留下。"},
    "vjp_same_player": {"en": "This is exactly what this backward adds into {x}.grad: {value}.",
                        "ko": "이것이 바로 이번 역전파가 {x}.grad에 더하는(누적) 값입니다: {value}.",
                        "zh": "这正是这次反向传播累加到 {x}.grad 里的值：{value}。"},
    "vjp_how": {
        "en": "Entry j of vᵀJ is Σᵢ v[i]·∂{y}[i]/∂{x}[j]: every row of J times its v[i], then the rows added up. "
              "backward() reaches the same numbers through the chain rule without ever building J.",
        "ko": "vᵀJ의 j번째 값은 Σᵢ v[i]·∂{y}[i]/∂{x}[j]입니다. J의 각 행에 그 행의 v[i]를 곱한 뒤 모든 행을 "
              "더한 것입니다. backward()는 J를 만들지 않고 연쇄 법칙만으로 같은 값에 도달합니다.",
        "zh": "vᵀJ 的第 j 个值是 Σᵢ v[i]·∂{y}[i]/∂{x}[j]：J 的每一行乘以该行的 v[i]，再把所有行加起来。"
              "backward() 通过链式法则得到同样的数，从不构造 J。"},
    "vjp_built": {
        "en": "Here J was built row by row, one autograd.grad per element of {y} with retain_graph=True, only to "
              "show it: the graph and every .grad are as they were.",
        "ko": "여기서는 보여 주기 위해 {y}의 원소마다 autograd.grad를 한 번씩(retain_graph=True) 불러 J를 한 행씩 "
              "만들었습니다. 그래프와 모든 .grad는 그대로입니다.",
        "zh": "这里只是为了展示，才对 {y} 的每个元素各调用一次 autograd.grad（retain_graph=True），逐行求出 J；"
              "计算图和所有 .grad 都保持原样。"},
    # the quiz: predict a gradient, then see it
    "quiz_intro": {
        "en": "Predict each gradient before you see it: at every step where a node sends gradients, type what "
              "it sends and press Check (or Reveal). {n} questions.",
        "ko": "변화도를 보기 전에 먼저 예측해 보세요. 노드가 변화도를 보내는 단계마다 보낼 값을 입력하고 확인을 "
              "누르세요(또는 정답 보기). 문제는 {n}개입니다.",
        "zh": "先预测，再查看：在每个节点传出梯度的步骤，输入它会传出的值，然后点击“检查”（或“显示答案”）。共 {n} 题。"},
    "quiz_ask_one": {"en": "{received}. What gradient does it send to {dest}?",
                     "ko": "{received}. {dest}에 어떤 변화도를 보낼까요?",
                     "zh": "{received}。它会把什么梯度传给 {dest}？"},
    "quiz_ask_many": {"en": "{received}. What gradient does it send to each of its {n} inputs?",
                      "ko": "{received}. 입력 {n}개에 각각 어떤 변화도를 보낼까요?",
                      "zh": "{received}。它会给 {n} 个输入分别传出什么梯度？"},
    "quiz_field": {"en": "input {slot} → {dest}, {shape}", "ko": "입력 {slot} → {dest}, {shape}",
                   "zh": "输入 {slot} → {dest}，{shape}"},
    "quiz_one_number": {"en": "one number", "ko": "숫자 하나", "zh": "一个数"},
    "quiz_constant": {"en": "Its other input is a constant: it gets no gradient.",
                      "ko": "나머지 입력 하나는 상수라서 변화도를 받지 않습니다.",
                      "zh": "它的另一个输入是常量，不接收梯度。"},
    "quiz_constants": {"en": "{n} of its inputs are constants: they get no gradient.",
                       "ko": "입력 중 {n}개는 상수라서 변화도를 받지 않습니다.",
                       "zh": "它有 {n} 个输入是常量，不接收梯度。"},
    "quiz_rule": {
        "en": "Chain rule: what a node sends to an input = what it received × how fast its output changes "
              "with that input.",
        "ko": "연쇄 법칙: 노드가 입력에 보내는 변화도 = 받은 변화도 × 그 입력에 대한 출력의 변화율.",
        "zh": "链式法则：节点传给某个输入的梯度 = 它收到的梯度 × 它的输出随这个输入变化的快慢（导数）。"},
    "quiz_placeholder": {"en": "e.g. 4.5 or [[1, 2], [3, 4]]", "ko": "예: 4.5 또는 [[1, 2], [3, 4]]",
                         "zh": "例如 4.5 或 [[1, 2], [3, 4]]"},
    "quiz_format": {
        "en": "One number means that value in every element; or type the whole tensor, [[1, 2], [3, 4]]. "
              "Arithmetic such as 0.75*3 is fine.",
        "ko": "숫자 하나는 모든 원소가 그 값이라는 뜻입니다. 텐서 전체를 [[1, 2], [3, 4]]처럼 써도 됩니다. "
              "0.75*3 같은 계산식도 됩니다.",
        "zh": "一个数表示每个元素都是这个值；也可以写出整个张量，如 [[1, 2], [3, 4]]。可以写 0.75*3 这样的算式。"},
    "check": {"en": "Check", "ko": "확인", "zh": "检查"},
    "reveal": {"en": "Reveal", "ko": "정답 보기", "zh": "显示答案"},
    "quiz_right": {"en": "✓ Right: it sends {value}.", "ko": "✓ 맞았습니다. 보내는 변화도는 {value}입니다.",
                   "zh": "✓ 正确：它传出 {value}。"},
    "quiz_wrong": {"en": "✗ Not quite: you wrote {yours}, but it sends {value}.",
                   "ko": "✗ 아쉽습니다. {yours}(이)라고 썼지만 보내는 변화도는 {value}입니다.",
                   "zh": "✗ 不对：你写的是 {yours}，但它传出的是 {value}。"},
    "quiz_revealed": {"en": "It sends {value}.", "ko": "보내는 변화도는 {value}입니다.", "zh": "它传出 {value}。"},
    "quiz_why": {"en": "Why: ", "ko": "이유: ", "zh": "原因："},
    "quiz_empty": {"en": "Type an answer first (for example 4.5).", "ko": "먼저 답을 입력하세요(예: 4.5).",
                   "zh": "请先输入答案（例如 4.5）。"},
    "quiz_unreadable": {"en": "I cannot read “{text}” as a number or a tensor{why}. Try 4.5 or [[1, 2], [3, 4]].",
                        "ko": "“{text}”을(를) 숫자나 텐서로 읽을 수 없습니다{why}. 4.5나 [[1, 2], [3, 4]]처럼 써 보세요.",
                        "zh": "无法把“{text}”读成一个数或张量{why}。试试 4.5 或 [[1, 2], [3, 4]]。"},
    "quiz_bad_word": {"en": ": “{word}” is not a number", "ko": ": “{word}”은(는) 숫자가 아닙니다",
                      "zh": "：“{word}”不是数"},
    "quiz_bad_rows": {"en": ": its rows have different lengths", "ko": ": 행마다 길이가 다릅니다",
                      "zh": "：各行的长度不一样"},
    "quiz_bad_dots": {"en": ": “...” stands for numbers left out; type them all",
                      "ko": ": “...”은(는) 생략된 숫자를 뜻합니다. 모두 써 주세요",
                      "zh": "：“...”表示省略的数，请全部写出来"},
    "quiz_bad_math": {"en": ": its arithmetic has no finite value (a division by zero?)",
                      "ko": ": 계산 결과가 유한한 값이 아닙니다(0으로 나누었나요?)",
                      "zh": "：算式没有有限的值（除以零了吗？）"},
    "quiz_shape": {
        "en": "Your answer has {got}, but a gradient has the shape of its input: {want}. One number is fine "
              "when every element is the same.",
        "ko": "답은 {got}인데, 변화도는 입력과 모양이 같습니다: {want}. 모든 원소가 같다면 숫자 하나만 써도 됩니다.",
        "zh": "你的答案是{got}，但梯度的形状和它的输入相同：{want}。如果所有元素都相等，写一个数即可。"},
    "quiz_nearly": {
        "en": "Nearly: that is the value rounded. Type it more exactly (more digits, or a fraction such as 1/3): "
              "answers are checked as torch.allclose checks.",
        "ko": "거의 맞았습니다. 반올림한 값입니다. 더 정확히 써 주세요(자릿수를 늘리거나 1/3 같은 분수로). "
              "답은 torch.allclose처럼 확인합니다.",
        "zh": "很接近：这是四舍五入后的值。请写得更精确（多写几位，或写成 1/3 这样的分数）：答案按 torch.allclose 的标准检查。"},
    "quiz_score": {"en": "Score: {right} of {answered} right ({total} questions)",
                   "ko": "점수: {answered}문제 중 {right}문제 정답 (전체 {total}문제)",
                   "zh": "得分：{answered} 题中答对 {right} 题（共 {total} 题）"},
    "quiz_done": {"en": "Done: {right} of {total} right", "ko": "끝: {total}문제 중 {right}문제 정답",
                  "zh": "完成：{total} 题中答对 {right} 题"},
    "quiz_too_big": {"en": "This step sends too many different numbers to type: watch it instead.",
                     "ko": "이 단계는 입력할 숫자가 너무 많아서 묻지 않고 보여 줍니다.",
                     "zh": "这一步传出的数太多，不便输入，所以直接显示，不提问。"},
    "quiz_locked": {"en": "Check or reveal this step's answer first", "ko": "먼저 이 단계의 답을 확인하거나 정답을 보세요",
                    "zh": "请先检查或显示这一步的答案"},
    "quiz_needs_kernel": {
        "en": "Checking answers needs a running kernel: run this cell (Shift+Enter).",
        "ko": "답을 확인하려면 실행 중인 커널이 필요합니다: 이 셀을 실행하세요(Shift+Enter).",
        "zh": "检查答案需要正在运行的内核：请运行这个单元（Shift+Enter）。"},
}


def check_language(lang):
    if lang not in LANGUAGES:
        raise ValueError(f"lang must be one of {', '.join(map(repr, LANGUAGES))}, not {lang!r}")
    return lang


def set_language(lang):
    """The player's language from now on: 'en' (the default), 'ko' or 'zh'. Returns the previous one."""
    global _language
    previous, _language = _language, check_language(lang)
    return previous


def get_language():
    """The language players use when animate_backward() gets no lang=."""
    return _active or _language


def resolve(lang):
    return get_language() if lang is None else check_language(lang)


@contextlib.contextmanager
def using(lang):
    """Build one player's text in `lang` (None: the global setting)."""
    global _active
    previous, _active = _active, resolve(lang)
    try:
        yield _active
    finally:
        _active = previous


def t(key, **values):
    """The text `key` in the active language, filled in."""
    return TEXT[key][get_language()].format(**values)
