"""The backward quiz (animate_backward(out, quiz=True)): typed answers read and judged, on real recordings
of generated graphs, against PyTorch's gradients computed live; what is asked where; the score and the
lock on the next step; the words in en/ko/zh; the kernel sentence. No browser (tests/ui has that)."""
import html
import re

import numpy as np
import pytest

import gradlab as torch
from gradlab.viz import BackwardPlayer, BackwardQuiz, animate_backward, i18n
from gradlab.viz import player as viz_player
from gradlab.viz.player import AnswerError, judge, read_answer
from gradlab.viz.player.html import caption_html
from gradlab.viz.player.quiz import MAX_TYPED, QUIZ_CSS
from test_player import _contrast      # (WCAG contrast of two colours)


def tutorial():
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    z = y * y * 3
    out = z.mean()
    return x, y, z, out


def tutorial_quiz(**kwargs):
    x, y, z, out = tutorial()
    return animate_backward(out, names={"x": x, "y": y, "z": z, "out": out}, quiz=True, **kwargs)


# --- generated graphs, against PyTorch ------------------------------------------------------------
def _program(T, seed):
    """A small random program of ops gradlab and PyTorch share: fan-out (a value used twice), constants,
    several leaves, scalars and 2x3 tensors."""
    rng = np.random.default_rng(seed)
    shape = (2, 3) if seed % 3 else ()
    values = [T.tensor(rng.standard_normal(shape).astype(np.float32), requires_grad=True)
              for _ in range(int(rng.integers(1, 4)))]
    for _ in range(int(rng.integers(2, 7))):
        op, i, j = int(rng.integers(0, 6)), int(rng.integers(len(values))), int(rng.integers(len(values)))
        a, b = values[i], values[j]
        values.append([lambda: a + b, lambda: a * b, lambda: a.tanh(), lambda: a * float(i + 2),
                       lambda: a.exp() * 0.5, lambda: a - b * b][op]())
    return values[-1].sum() + values[-2].mean() * 2


def _torch_steps(out):
    """(node name, grad_inputs) of every node PyTorch's engine runs, in its order, from node hooks."""
    steps, seen, stack = [], set(), [out.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        node.register_hook(lambda gi, go, node=node: steps.append((node.name(), gi)))
        stack.extend(child for child, _ in node.next_functions)
    out.backward()
    return steps


def _spellings(real, g):
    """Ways a student (or a paste) writes a gradient at full float32 precision."""
    a = g.numpy()
    with np.printoptions(precision=9):
        numpy_repr, numpy_str = repr(a), str(a)
    real.set_printoptions(precision=9)
    try:
        printed = str(g)
    finally:
        real.set_printoptions(profile="default")
    return [repr(a.tolist()), numpy_repr, numpy_str, printed, a]


def _perturbed(a, rng):
    a = np.array(a, dtype=np.float64, copy=True)
    k = int(rng.integers(a.size)) if a.size else 0
    flat = a.reshape(-1)
    flat[k] += (1e-3 + 1e-2 * abs(flat[k])) * (1 if rng.random() < 0.5 else -1)
    return a


@pytest.mark.torch
@pytest.mark.parametrize("seed", range(10))
def test_quiz_accepts_pytorchs_gradients_and_rejects_perturbed_ones(seed):
    real = pytest.importorskip("torch")
    expected = _torch_steps(_program(real, seed))
    quiz = animate_backward(_program(torch, seed), quiz=True)
    assert isinstance(quiz, BackwardQuiz)
    frames = quiz.frames[1:]
    assert [f.node.name for f in frames] == [name for name, _ in expected]
    rng = np.random.default_rng(seed)
    asked = 0
    for frame, (_, grad_inputs) in zip(frames, expected):
        questions = quiz.questions_at(frame.index)
        if frame.node.is_accumulate:
            assert questions == ()                    # AccumulateGrad: nothing to predict, only shown
            continue
        # one question per input that gets a gradient (every one is small enough to type here)
        assert [q.input_nr for q in questions] == [i for i, g in enumerate(grad_inputs) if g is not None]
        for q in questions:
            want = grad_inputs[q.input_nr]
            for typed in _spellings(real, want):
                right, got, why = quiz.check(frame.index, typed, input=q.input_nr)
                assert right is True, (frame.node.title, q.input_nr, typed, got)
                assert why == frame.caption
            wrong = quiz.check(frame.index, repr(_perturbed(want.numpy(), rng).tolist()), input=q.input_nr)
            assert wrong.right is False, (frame.node.title, wrong)
            np.testing.assert_allclose(wrong.expected, want.numpy(), rtol=1e-5, atol=1e-6)
            asked += 1
    assert asked == len(quiz.questions) and asked > 0


@pytest.mark.torch
def test_tutorial_quiz_against_autograd_grad():
    """The tutorial's graph: every question's answer is PyTorch's gradient of `out` with respect to the
    tensor the node sends to (autograd.grad on the same graph), written as a student would."""
    real = pytest.importorskip("torch")
    x = real.ones(2, 2, requires_grad=True)
    y = x + 2
    yy = y * y
    z = yy * 3
    out = z.mean()
    dz, dyy, dy, dx = real.autograd.grad(out, [z, yy, y, x])
    quiz = tutorial_quiz()
    assert [(q.step, q.input_nr) for q in quiz.questions] == [(1, 0), (2, 0), (3, 0), (3, 1), (4, 0)]
    assert [q.slot for q in quiz.questions] == ["self", "self", "self", "other", "self"]
    # y*y sends dL/dy's two halves, one per input: each is half of what y gets in all
    answers = {(1, 0): dz, (2, 0): dyy, (3, 0): dy / 2, (3, 1): dy / 2, (4, 0): dx}
    for (step, nr), g in answers.items():
        one = str(float(g.reshape(-1)[0]))
        assert quiz.check(step, one, input=nr).right, (step, one)
        assert quiz.check(step, repr(g.tolist()), input=nr).right
        assert quiz.check(step, str(g), input=nr).right                  # PyTorch's own print
        assert quiz.check(step, str(float(g.reshape(-1)[0]) * 2), input=nr).right is False
    assert quiz.questions_at(0) == () and quiz.questions_at(5) == ()      # the start, AccumulateGrad


# --- reading answers ----------------------------------------------------------------------------------
@pytest.mark.parametrize("text, value", [
    ("4.5", 4.5), (" -2 ", -2.0), ("1/4", 0.25), ("0.75*3", 2.25), ("3**2", 9.0), ("1e-3", 1e-3),
    ("[[1, 2], [3, 4]]", [[1, 2], [3, 4]]), ("(1, 2)", [1, 2]), ("1, 2", [1, 2]),
    ("tensor([0.2500, 0.5000])", [0.25, 0.5]), ("torch.tensor([[1., 2.]], requires_grad=True)", [[1, 2]]),
    ("tensor(2.2500, grad_fn=<MulBackward0>)", 2.25), ("tensor([1., 2.], dtype=torch.float64)", [1, 2]),
    ("array([[4.5, 4.5],\n       [4.5, 4.5]], dtype=float32)", [[4.5, 4.5], [4.5, 4.5]]),
    ("np.array([1, 2])", [1, 2]), ("[[4.5 4.5]\n [4.5 4.5]]", [[4.5, 4.5], [4.5, 4.5]]),
    ("[ 1. -2.]", [1, -2]), ("[1 - 2]", [-1]), ("nan", np.nan), ("-inf", -np.inf), ("np.nan", np.nan),
    ("１．５", 1.5), ("［1，2］", [1, 2]), ("\u22121", -1.0), ("2×3", 6.0),
    ("2.25 everywhere", 2.25), ("2.25 (모든 원소)", 2.25), ("2.25（所有元素）", 2.25),     # the player's own words
])
def test_answers_are_read_as_people_write_them(text, value):
    np.testing.assert_array_equal(read_answer(text), np.array(value, dtype=np.float64))


@pytest.mark.parametrize("text, words", [
    ("", "Type an answer first"), ("   ", "Type an answer first"),
    ("abc", "“abc” is not a number"), ("x + 1", "“x” is not a number"),
    ("[[1, 2], [3]]", "rows have different lengths"), ("[1, 2", "cannot read"), ("1/0", "division by zero"),
    ("tensor([0.25, ..., 0.25])", "numbers left out"), ("__import__('os').system('true')", "cannot read"),
    ("9**9**9", "cannot read"), ("[1, 2] * 2", "cannot read"), ("'4.5'", "cannot read"), ("True", "cannot read"),
    ("[" * 300 + "]" * 300, "cannot read"), ("1" * 5000, "cannot read"), ("lambda: 1", "cannot read"),
    ("{1: 2}", "cannot read"), ("f(1)", "cannot read"), ("1 if 1 else 2", "cannot read"),
])
def test_malformed_answers_get_a_sentence_not_a_traceback(text, words):
    with pytest.raises(AnswerError) as info:
        read_answer(text)
    assert words in str(info.value), str(info.value)
    quiz = tutorial_quiz()
    check = quiz.check(1, text)
    assert check.right is None and words in check.message and "Traceback" not in check.message
    assert quiz.score == (0, 0, 5)                       # nothing counted


def test_random_text_never_raises():
    rng = np.random.default_rng(0)
    alphabet = list("0123456789.,-+*/()[] eEnaitrosy_=<>'\"\n\\{}:;") + ["tensor(", "array(", "**", "..."]
    quiz = tutorial_quiz()
    for _ in range(2000):
        text = "".join(rng.choice(alphabet, size=int(rng.integers(0, 16))))
        check = quiz.check(1, text)
        assert check.right in (True, False, None)
        assert check.right is not None or check.message


def test_shape_and_rounding_are_said_not_scored():
    quiz = tutorial_quiz()
    flat = quiz.check(1, "[0.25, 0.25, 0.25, 0.25]")
    assert flat.right is None and "shape 4" in flat.message and "shape 2×2" in flat.message
    rounded = judge("0.3333", np.float32(1 / 3))
    assert rounded.right is None and "1/3" in rounded.problem
    assert judge("1/3", np.float32(1 / 3)).right is True
    assert judge("0.34", np.float32(1 / 3)).right is False
    # torch.allclose's defaults: rtol 1e-5, atol 1e-8
    assert judge(str(1 + 0.9e-5), 1.0).right is True and judge(str(1 + 1.1e-5), 1.0).right is not True
    assert judge("nan", np.nan).right is True and judge("inf", np.inf).right is True
    # one number for a constant tensor, and a one-element list for a scalar
    assert judge("4.5", np.full((2, 2), 4.5)).right and judge("[0.25]", np.float32(0.25)).right
    assert judge("4.5", np.array([[4.5, 1.0]])).right is False


def test_python_values_are_answers_too():
    quiz = tutorial_quiz()
    assert quiz.check(1, 0.25).right and quiz.check(1, [[0.25, 0.25], [0.25, 0.25]]).right
    assert quiz.check(1, np.full((2, 2), 0.25)).right and quiz.check(1, torch.full((2, 2), 0.25)).right
    assert quiz.check(1, torch.ones(2, requires_grad=True) * 0.25).right is None    # shape 2, said


# --- what is asked where --------------------------------------------------------------------------------
def test_check_names_the_input_when_a_step_asks_for_several():
    quiz = tutorial_quiz()
    with pytest.raises(ValueError, match=r"step 3 asks for 2 gradients, one per input: pass input= one of "
                                         r"0 \(self\), 1 \(other\)"):
        quiz.check(3, "2.25")
    assert quiz.check(3, "2.25", input="other").right and quiz.check(3, "2.25", input=1).right
    with pytest.raises(ValueError, match="step 0 has nothing to predict; the steps with questions are: 1, 2, 3, 4"):
        quiz.check(0, "1")
    with pytest.raises(ValueError, match="step 5 has nothing to predict"):
        quiz.check(5, "4.5")


def test_large_tensors_are_shown_not_asked_unless_constant():
    w = torch.arange(20.0).reshape(4, 5).requires_grad_()
    quiz = animate_backward((w * w).sum(), names={"w": w}, quiz=True)        # 2w: 20 different numbers
    mul = next(f for f in quiz.frames if f.node is not None and f.node.title == "MulBackward0")
    assert quiz.questions_at(mul.index) == ()
    assert "too many different numbers" in quiz.words_html(mul.index)
    sums = next(f for f in quiz.frames if f.node is not None and f.node.title == "SumBackward0")
    (q,) = quiz.questions_at(sums.index)                                     # ones everywhere: one number
    assert q.expected.size == 20 > MAX_TYPED and quiz.check(sums.index, "1").right


def test_values_are_hidden_until_answered():
    quiz = tutorial_quiz()
    for q in quiz.questions:
        frame = quiz.frames[q.step]
        words, view = quiz.words_html(q.step), quiz.view_html(q.step)
        assert "Why:" not in words and caption_html(frame) not in words
        for s in frame.sent:       # the edges of this step: drawn hot, their values hidden
            assert f"g.gl_e{s.edge.id} text{{visibility:hidden}}" in view
        assert 'class="gradlab-details"' not in view and 'class="gradlab-caption"' not in view
    quiz.reveal(1)
    assert quiz.words_html(1).count(caption_html(quiz.frames[1])) == 1
    assert f"g.gl_e{quiz.frames[1].sent[0].edge.id} text{{visibility:hidden}}" not in quiz.view_html(1)
    # steps with nothing to predict show their caption at once
    assert caption_html(quiz.frames[0]) in quiz.words_html(0)
    assert caption_html(quiz.frames[5]) in quiz.words_html(5)


def test_score_counts_first_answers_and_reveals():
    quiz = tutorial_quiz()
    assert quiz.score == (0, 0, 5) and not quiz.answered(1) and quiz.answered(0)
    checks = quiz.submit(1, "[[0.25, 0.25], [0.25, 0.25")          # unreadable: nothing scored
    assert checks[0].right is None and quiz.score == (0, 0, 5) and not quiz.answered(1)
    quiz.submit(1, "0.5")
    assert quiz.score == (0, 1, 5) and quiz.answered(1)
    quiz.submit(1, "0.25")                                        # a second try does not change the score
    assert quiz.score == (0, 1, 5)
    quiz.submit(2, ["0.75"])
    assert quiz.score == (1, 2, 5)
    checks = quiz.submit(3, {"self": "2.25", 1: "4.5"})           # one box per input, each scored
    assert [c.right for c in checks] == [True, False] and quiz.score == (2, 4, 5)
    quiz.reveal(4)
    assert quiz.score == (2, 5, 5) and quiz.score_text() == "Done: 2 of 5 right"
    with pytest.raises(ValueError, match="asks for 2 gradients, got 1 answers"):
        quiz.submit(3, ["2.25"])


def test_check_is_pure_and_unpacks_to_three():
    quiz = tutorial_quiz()
    right, expected, explanation = quiz.check(2, "0.75")
    assert right is True and explanation == quiz.frames[2].caption
    np.testing.assert_allclose(expected, np.full((2, 2), 0.75))
    assert quiz.score == (0, 0, 5)


# --- quiz=False stays the player ---------------------------------------------------------------------
def test_quiz_false_is_the_player_as_before():
    player = animate_backward(tutorial()[3])
    assert type(player) is BackwardPlayer
    quiz = animate_backward(tutorial()[3], quiz=True)
    assert [f.caption for f in quiz.frames] == [f.caption for f in player.frames]
    assert quiz.player.frames_html == player.frames_html
    assert repr(quiz) == "<gradlab backward quiz: 6 steps, 5 questions>"


# --- the widget (no browser: its Python side) ---------------------------------------------------------
def test_widget_locks_next_until_checked_or_revealed():
    widgets = pytest.importorskip("ipywidgets")
    quiz = tutorial_quiz()
    root = quiz.widget
    assert isinstance(root, widgets.VBox) and "gradlab-quiz" in root._dom_classes
    assert not quiz.next_button.disabled and quiz.prev_button.disabled
    assert quiz.answer_row.layout.display == "none"              # the start: nothing to type
    quiz.next_button.click()
    assert quiz.at == 1 and quiz.next_button.disabled and quiz.next_button.tooltip
    assert quiz.rows[0].layout.display == "flex" and quiz.rows[1].layout.display == "none"
    assert "MeanBackward0 received dL/dout = 1" in quiz.asked.value
    quiz.fields[0].value = "1/0"
    quiz.check_button.click()
    assert "division by zero" in quiz.told.value and quiz.next_button.disabled
    quiz.fields[0].value = "0.5"
    quiz.check_button.click()
    assert "Not quite: you wrote 0.5, but it sends 0.25 everywhere" in quiz.told.value
    assert "Why: " + caption_html(quiz.frames[1]) in quiz.told.value
    assert not quiz.next_button.disabled and quiz.fields[0].disabled and quiz.check_button.disabled
    assert "Score: 0 of 1 right (5 questions)" in quiz.score_label.value
    quiz.next_button.click()
    quiz.reveal_button.click()
    assert "It sends 0.75 everywhere" in quiz.told.value and not quiz.next_button.disabled
    quiz.next_button.click()
    assert quiz.at == 3 and quiz.rows[1].layout.display == "flex"
    quiz.fields[0].value, quiz.fields[1].value = "2.25", "tensor([[2.25, 2.25], [2.25, 2.25]])"
    quiz.check_button.click()
    assert quiz.told.value.count("Right") == 2 and "Score: 2 of 4 right" in quiz.score_label.value
    quiz.prev_button.click()
    assert quiz.at == 2 and quiz.fields[0].disabled                # an answered step stays answered
    quiz._show(5)                                                  # never past a step still to answer
    assert quiz.at == 2
    for button in (quiz.prev_button, quiz.next_button, quiz.check_button, quiz.reveal_button):
        assert "gradlab-needs-kernel" in button._dom_classes


def test_kernel_sentence_in_the_widget_and_the_static_fallback():
    pytest.importorskip("ipywidgets")
    quiz = tutorial_quiz()
    sentence = "Checking answers needs a running kernel: run this cell (Shift+Enter)."
    bundle = quiz._repr_mimebundle_()
    assert bundle["text/plain"] == repr(quiz) and "application/vnd.jupyter.widget-view+json" in bundle
    assert sentence in bundle["text/html"] and "<svg" not in bundle["text/html"]
    assert sentence in quiz.note.value
    assert bundle["text/html"].index(sentence) < bundle["text/html"].index("<img")     # on screen first
    # the picture gives no answer away: no gradient is written on its edges
    from gradlab.viz.render import svg_from_img_html
    if quiz.player.svg is not None:
        svg = svg_from_img_html(bundle["text/html"])
        assert svg.count('class="node') == quiz.player.svg.count('class="node')
        for s in (x for f in quiz.frames for x in f.sent):
            assert viz_player.value_text(s.value) not in svg
    # hidden while the kernel answers; shown when ipywidgets marks the widget disconnected or
    # JupyterLab's toolbar says the kernel is gone
    assert ".gradlab-quiz-nokernel{display:none" in QUIZ_CSS
    assert ".gradlab-quiz.jupyter-widgets-disconnected .gradlab-quiz-nokernel" in QUIZ_CSS


# --- languages, contrast --------------------------------------------------------------------------------
_IDENTIFIERS = re.compile(r"\w*Backward\d*|AccumulateGrad|grad_fn|backward\(\)|backward|\.grad(?![A-Za-z])|None|"
                          r"dL/d\(?[A-Za-z0-9_. ]+\)?|torch\.allclose|tensor|Shift\+Enter|\b(self|other)\b")


def _latin_words(text, names):
    text = html.unescape(re.sub(r"<style>.*?</style>|<svg.*?</svg>|<[^>]+>", " ", text, flags=re.S))
    text = _IDENTIFIERS.sub(" ", text)
    for name in sorted(names, key=len, reverse=True):
        text = re.sub(rf"(?<![A-Za-z]){re.escape(name)}(?![A-Za-z])", " ", text)
    text = re.sub(r"\b[gL]\b", " ", text)
    return re.findall(r"[A-Za-z]{2,}", text)


@pytest.mark.parametrize("lang", ["ko", "zh"])
def test_quiz_in_korean_and_chinese(lang):
    pytest.importorskip("ipywidgets")
    script = re.compile(r"[\uac00-\ud7a3]" if lang == "ko" else r"[\u4e00-\u9fff]")
    quiz = tutorial_quiz(lang=lang)
    names = {"x", "y", "z", "out"}
    for f in quiz.frames:     # the captions' chain-rule formulas are code, as in the player (test_player.py)
        names |= {w for step in f.formulas for w in re.findall(r"[A-Za-z_]\w*", f"grad_{step.slot} {step.text}")}
    quiz.widget
    texts = [quiz.check_button.description, quiz.reveal_button.description, quiz.fields[0].placeholder,
             quiz.hint.value, quiz.note.value.split("</style>")[1], quiz.static_html(), quiz.score_text()]
    for step in range(len(quiz.frames)):
        quiz.reveal(step)
        texts += [quiz.words_html(step)] + [q.label for q in quiz.questions_at(step)]
    texts += [quiz.check(1, answer).message for answer in ("[1, 2", "[[1], [2, 3]]", "0.5", "[1, 2]", "0.2501", "",
                                                             "0.25")]
    for text in texts:
        assert script.search(text), text
        assert not _latin_words(text, names), (text, _latin_words(text, names))


def test_quiz_words_use_the_tutorials_terms():
    quiz_keys = [k for k in i18n.TEXT if k.startswith("quiz_") or k in ("check", "reveal")]
    ko = " ".join(i18n.TEXT[k]["ko"] for k in quiz_keys)
    zh = " ".join(i18n.TEXT[k]["zh"] for k in quiz_keys)
    assert "변화도" in ko and "커널" in ko and "기울기" not in ko
    assert "梯度" in zh and "内核" in zh


def test_quiz_colours_reach_wcag_aa():
    text = set(re.findall(r"(?<![-\w])color:(#[0-9a-fA-F]{3,6})", QUIZ_CSS))
    backgrounds = {"#fff"} | set(re.findall(r"background:(#[0-9a-fA-F]{3,6})", QUIZ_CSS))
    assert text and backgrounds
    for colour in text:
        for background in backgrounds:
            assert _contrast(colour, background) >= 4.5, (colour, background)


def test_public_names():
    assert viz_player.BackwardQuiz is BackwardQuiz and callable(viz_player.read_answer)
