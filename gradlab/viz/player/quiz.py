"""Predict, then reveal: `animate_backward(out, quiz=True)` returns a `BackwardQuiz`.

At every step where a Function node sends gradients, the student first types the gradient it will send to
each input, then presses Check (or Reveal). The answer is judged against what the real backward sent
(answers.py), and the step's caption explains it; only then does the next step open. Steps with nothing to
predict (the start, AccumulateGrad) are shown as the player shows them. The graph is the player's, with
the running node highlighted and this step's edges drawn hot, their values hidden until the answer is in.

    quiz.check(step, answer, input=None) -> Check(right, expected, explanation, message)   (pure)
    quiz.submit(step, answers) / quiz.reveal(step) / quiz.score                             (what the widget does)

Checking runs in the kernel (ipywidgets buttons), unlike the player's slider: without one, the widget and
the notebook's static fallback say so in one plain sentence.
"""
import html
from dataclasses import dataclass, replace
from typing import Any, Optional

import numpy as np

from ..i18n import t, using
from ..render import render_svg, svg_img_html
from .answers import judge, shape_text
from .captions import grad_name, step_text, value_text
from .drawing import graph_dot
from .html import FRAME_HEIGHT, caption_html, frame_html, legend_html, panels_html, table_html, widget_bundle

COLUMN_WIDTH = 380       # px: the question column (the player's text column is 340; an answer box needs room)
MAX_TYPED = 12           # elements: a larger gradient (not constant) is shown, not asked: nobody types 100 numbers

# The quiz brings its own white box (readable in JupyterLab's dark theme too; colours reach WCAG AA 4.5:1).
# ipywidgets marks a widget whose comm is gone (a saved notebook before its cell runs again, a restarted
# kernel) with .jupyter-widgets-disconnected; a kernel shut down leaves no mark on the widget, but JupyterLab's
# toolbar then says "No Kernel" (data-status="unknown" or "dead"): either way the sentence shows.
QUIZ_CSS = """
.gradlab-quiz-nokernel{display:none;font-size:15px;font-weight:bold;color:#b71c1c;background:#fff;
 border:2px solid #b71c1c;border-radius:4px;padding:6px 10px;margin:2px 0 6px 0}
.gradlab-quiz.jupyter-widgets-disconnected .gradlab-quiz-nokernel,
.jp-NotebookPanel:has(.jp-Notebook-ExecutionIndicator[data-status="unknown"],
 .jp-Notebook-ExecutionIndicator[data-status="dead"]) .gradlab-quiz-nokernel{display:block}
.gradlab-quiz .gradlab-text{display:none}
.gradlab-quiz-box{background:#fff;color:#212121;border:1px solid #ffb300;border-radius:6px;padding:4px 10px;
 box-sizing:border-box}
.gradlab-quiz-box .widget-html-content{line-height:1.4}
.gradlab-quiz-words{font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;color:#212121;font-size:15px;
 line-height:1.4}
.gradlab-quiz-q{font-weight:bold;margin:2px 0}
.gradlab-quiz-small{font-size:13px;color:#424242;margin:2px 0}
.gradlab-quiz-caption{background:#fff8e1;border-left:5px solid #ffb300;border-radius:4px;padding:6px 10px;margin:4px 0}
.gradlab-quiz-verdict{margin:4px 0}
.gradlab-quiz-right{color:#1b5e20;font-weight:bold}
.gradlab-quiz-wrong{color:#b71c1c;font-weight:bold}
.gradlab-quiz-shown{font-weight:bold}
.gradlab-quiz-problem{color:#8a4b00;margin:4px 0}
.gradlab-quiz-label{font-size:14px;color:#212121;font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif}
.gradlab-quiz-step,.gradlab-quiz-score{font-size:14px;color:#212121;background:#fff;padding:2px 8px;border-radius:4px;
 font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif}
.gradlab-quiz-score{font-weight:bold}
""".strip()


@dataclass(frozen=True)
class Question:
    """One gradient to predict: what the node running at `step` sends to its input `input_nr`."""
    step: int
    input_nr: int
    slot: Optional[str]          # the input's name in the op ('self', 'other'), None when it has none
    to: str                      # where it goes, in the player's words: 'AddBackward0 (the grad_fn of y)'
    expected: Any                # numpy array: what backward sent
    label: str                   # above its answer box: 'input self → AddBackward0 (the grad_fn of y), shape 2×2'


@dataclass(frozen=True)
class Check:
    """What checking one answer says. Unpacks as (right, expected, explanation).
    right: True or False; None when the answer could not count (unreadable, wrong shape, only rounded):
    `message` then says why and nothing is scored."""
    right: Optional[bool]
    expected: Any                # numpy array: the gradient backward sent
    explanation: str             # the step's caption, verbatim
    message: str                 # the sentence the quiz shows (plain text)
    answer: Any = None           # the answer as read, an array of the expected shape (None if unreadable)

    def __iter__(self):
        return iter((self.right, self.expected, self.explanation))


def _destination(rec, node_id):
    info = next(n for n in rec.nodes if n.id == node_id)
    if info.is_accumulate and info.tensor:
        return t("into_grad", leaf=info.tensor).replace("\n", " ")
    return t("dest_grad_fn", title=info.title, tensor=info.tensor) if info.tensor else info.title


def _questions(rec):
    """Every gradient a Function node sends that a student can type (see MAX_TYPED).

    One question per input, not one per step: each input has its own local derivative (a * b sends
    grad * b to a and grad * a to b), so asking for each is what catches the commonest slip, swapping the
    two factors; one answer for the whole step would hide it. When both inputs are the same tensor (y * y)
    the two answers are equal halves, and their sum is what the next node's step receives: the caption
    says so after the check."""
    out = []
    for frame in rec.frames:
        if frame.node is None or frame.node.is_accumulate:
            continue
        for s in sorted(frame.sent, key=lambda s: s.edge.input_nr):
            flat = np.asarray(s.value).reshape(-1)
            if flat.size > MAX_TYPED and not np.all(flat == flat[0]):
                continue
            nr = s.edge.input_nr
            slot = frame.node.inputs[nr] if nr < len(frame.node.inputs) else None
            to = _destination(rec, s.edge.src)
            label = t("quiz_field", slot=slot or nr, dest=to, shape=shape_text(np.shape(s.value)))
            out.append(Question(frame.index, nr, slot or None, to, s.value, label))
    return out


class BackwardQuiz:
    """A backward to predict step by step. `.player` is the plain BackwardPlayer of the same backward
    (its save_html and save_gif export the answers)."""

    def __init__(self, player):
        self.player = player
        self.recording, self.frames, self.lang = player.recording, player.frames, player.lang
        with using(self.lang):
            self.questions = tuple(_questions(self.recording))
        self._by_step = {}
        for q in self.questions:
            self._by_step.setdefault(q.step, []).append(q)
        self._results = {}           # (step, input_nr) -> Check, or None when revealed unanswered
        self._typed = {}             # (step, answer box) -> the text last typed (kept when going back)
        self._feedback = {}          # step -> HTML of problems with the last Check (unreadable answers)
        self._widget = None
        self._static_svg = None      # the picture of static_html, drawn once
        self.at = 0                  # the step the widget shows

    def __len__(self):
        return len(self.frames)

    def __repr__(self):
        return f"<gradlab backward quiz: {len(self.frames)} steps, {len(self.questions)} questions>"

    # --- checking: plain Python, no widget --------------------------------------------------------
    def questions_at(self, step):
        """The questions of a step, in input order (empty: nothing to predict there)."""
        return tuple(self._by_step.get(step, ()))

    def _question(self, step, input):
        questions = self.questions_at(step)
        if not questions:
            asked = ", ".join(map(str, sorted(self._by_step))) or "none"
            raise ValueError(f"step {step} has nothing to predict; the steps with questions are: {asked}")
        if input is None:
            if len(questions) == 1:
                return questions[0]
            which = ", ".join(f"{q.input_nr} ({q.slot})" if q.slot else str(q.input_nr) for q in questions)
            raise ValueError(f"step {step} asks for {len(questions)} gradients, one per input: pass input= "
                             f"one of {which}")
        for q in questions:
            if input == q.input_nr or (isinstance(input, str) and input == q.slot):
                return q
        raise ValueError(f"step {step} asks nothing about input {input!r}")

    def check(self, step, answer, input=None):
        """Judge `answer` (text as typed, a number, a list, an array) for the gradient the node of `step`
        sends to `input` (its number or slot name; needed when the step asks for several). Pure: the score
        is left alone (see submit)."""
        q = self._question(step, input)
        with using(self.lang):
            verdict = judge(answer, q.expected)
            caption = self.frames[step].caption
            value = value_text(q.expected, limit=MAX_TYPED)
            if verdict.right is None:
                message = verdict.problem
            elif verdict.right:
                message = t("quiz_right", value=value)
            else:
                yours = " ".join(answer.split()) if isinstance(answer, str) else value_text(verdict.answer, MAX_TYPED)
                message = t("quiz_wrong", yours=yours, value=value)
        return Check(verdict.right, q.expected, caption, message, verdict.answer)

    # --- the quiz's state: what the widget's buttons do ---------------------------------------------
    def answered(self, step):
        """True when every question of the step is checked or revealed (the next step is then open)."""
        return all((step, q.input_nr) in self._results for q in self.questions_at(step))

    def submit(self, step, answers):
        """Check every answer of a step at once (a list, one per question in input order, or
        {input_nr or slot: answer}; one text alone for a step of one question) and
        score them, unless one cannot count: then nothing is scored and each Check's message says why."""
        questions = self.questions_at(step)
        if isinstance(answers, dict):
            answers = [answers.get(q.input_nr, answers.get(q.slot, "")) for q in questions]
        elif isinstance(answers, str):
            answers = [answers]
        if len(answers) != len(questions):
            raise ValueError(f"step {step} asks for {len(questions)} gradients, got {len(answers)} answers")
        checks = [self.check(step, a, q.input_nr) for q, a in zip(questions, answers)]
        if self.answered(step):
            return checks            # the score counts the first answer only
        if all(c.right is not None for c in checks):
            for q, c in zip(questions, checks):
                self._results[(step, q.input_nr)] = c
        return checks

    def reveal(self, step):
        """Show a step's gradients without answering: they count as not right."""
        for q in self.questions_at(step):
            self._results.setdefault((step, q.input_nr), None)

    @property
    def score(self):
        """(right, answered, questions): revealed questions count as answered, not right."""
        right = sum(1 for c in self._results.values() if c is not None and c.right)
        return right, len(self._results), len(self.questions)

    # --- what a step looks like ---------------------------------------------------------------------
    # Laid out like the player: a fixed column on the left (here the question, the answer boxes, the verdict
    # and the step's caption, then the .grad panels and the legend) beside the graph, both FRAME_HEIGHT
    # high, so that nothing moves when the verdict appears and the whole step fits a 1280x800 window.
    def view_html(self, step):
        """The graph of a step (the player's frame; its text column is the quiz's own column), with what the
        step sends hidden until its questions are answered."""
        p = self.player
        with using(self.lang):
            return frame_html(self.recording, self.frames[step], p.svg, p._uid, len(self.frames), caption=False,
                              secret=not self.answered(step))

    def words_html(self, step):
        """The column's text for a step: what is asked above the answer boxes, what it says below them."""
        return "".join(self._words(step))

    def _words(self, step):
        """(above the answer boxes, below them): the question, then the verdicts and the caption; a step
        with nothing to ask has only its caption (and, at the start, what the quiz is)."""
        frame = self.frames[step]
        questions = self.questions_at(step)
        with using(self.lang):
            above, below = [], []
            if step == 0:
                above.append(f'<div class="gradlab-quiz-q">{_e(t("quiz_intro", n=len(self.questions)))}</div>')
            if not questions:
                if frame.sent and frame.node is not None and not frame.node.is_accumulate:
                    above.append(f'<div class="gradlab-quiz-small">{_e(t("quiz_too_big"))}</div>')
                above.append(f'<div class="gradlab-quiz-caption">{caption_html(frame)}</div>')
            else:
                above.append(f'<div class="gradlab-quiz-q">{_e(self._ask(frame, questions))}</div>')
                constants = len(frame.node.inputs) - len(frame.sent)
                if constants > 0:
                    note = t("quiz_constant") if constants == 1 else t("quiz_constants", n=constants)
                    above.append(f'<div class="gradlab-quiz-small">{_e(note)}</div>')
                if not self.answered(step):
                    above.append(f'<div class="gradlab-quiz-small">{_e(t("quiz_rule"))}</div>')
                    below.append(self._feedback.get(step, ""))
                else:
                    below.append(self._verdicts_html(step, questions))
                    below.append(f'<div class="gradlab-quiz-caption">{_e(t("quiz_why"))}{caption_html(frame)}</div>')
            wrap = '<div class="gradlab-quiz-words">{}</div>'
            return wrap.format("".join(above)), (wrap.format("".join(below)) if any(below) else "")

    def _ask(self, frame, questions):
        received = [g for g in frame.received if g is not None]
        value = value_text(received[0]) if received else t("nothing")
        own = grad_name(frame.node.tensor)
        got = t("got_named", own=own, value=value) if own else t("got_unnamed", value=value)
        said = t("fn_received", title=frame.node.title, got=got).rstrip(",")   # got_unnamed ends in a comma
        if len(questions) == 1:
            return t("quiz_ask_one", received=said, dest=questions[0].to)
        return t("quiz_ask_many", received=said, n=len(questions))

    def _verdicts_html(self, step, questions):
        lines = []
        for q in questions:
            c = self._results[(step, q.input_nr)]
            if c is None:
                text, cls = t("quiz_revealed", value=value_text(q.expected, limit=MAX_TYPED)), "gradlab-quiz-shown"
            else:
                text, cls = c.message, ("gradlab-quiz-right" if c.right else "gradlab-quiz-wrong")
            who = f"{_e(q.label)}: " if len(questions) > 1 else ""
            lines.append(f'<div class="gradlab-quiz-verdict">{who}<span class="{cls}">{_e(text)}</span></div>')
        return "".join(lines)

    def score_text(self):
        right, answered, total = self.score
        with using(self.lang):
            if total and answered == total:
                return t("quiz_done", right=right, total=total)
            return t("quiz_score", right=right, answered=answered, total=total)

    # --- the widget ---------------------------------------------------------------------------------
    @property
    def widget(self):
        if self._widget is None:
            with using(self.lang):
                self._widget = self._build_widget()
                self._show(0)
        return self._widget

    def _build_widget(self):
        import ipywidgets as w
        most = max((len(q) for q in self._by_step.values()), default=0)
        self.prev_button = w.Button(description=t("prev"), layout=w.Layout(width="96px"))
        self.next_button = w.Button(description=t("next"), layout=w.Layout(width="96px"))
        self.step_label = w.HTML()
        self.score_label = w.HTML()
        self.asked = w.HTML()
        self.told = w.HTML()
        self.labels = [w.HTML() for _ in range(most)]
        self.fields = [w.Text(placeholder=t("quiz_placeholder"), layout=w.Layout(width="98%")) for _ in range(most)]
        self.rows = [w.VBox([label, field]) for label, field in zip(self.labels, self.fields)]
        self.check_button = w.Button(description=t("check"), button_style="primary", layout=w.Layout(width="120px"))
        self.reveal_button = w.Button(description=t("reveal"), layout=w.Layout(width="120px"))
        self.hint = w.HTML(f'<div class="gradlab-quiz-words"><div class="gradlab-quiz-small">{_e(t("quiz_format"))}'
                           "</div></div>")
        self.answer_row = w.VBox([w.HBox([self.check_button, self.reveal_button]), self.hint])
        self.note = w.HTML(f'<style>{QUIZ_CSS}</style><div class="gradlab-quiz-nokernel" role="status">'
                           f'{_e(t("quiz_needs_kernel"))}</div>')
        self.panels = w.HTML()
        self.view = w.HTML(layout=w.Layout(flex="1 1 auto", min_width="0"))
        column = w.VBox([self.asked, *self.rows, self.answer_row, self.told, self.panels],
                        layout=w.Layout(width=f"{COLUMN_WIDTH}px", min_width=f"{COLUMN_WIDTH}px",
                                        height=f"{FRAME_HEIGHT + 12}px", overflow="auto"))
        column.add_class("gradlab-quiz-box")
        nav = w.HBox([self.prev_button, self.next_button, self.step_label, self.score_label],
                     layout=w.Layout(align_items="center"))
        for button in (self.prev_button, self.next_button, self.check_button, self.reveal_button):
            button.add_class("gradlab-needs-kernel")     # these do need the kernel: ipywidgets' badge stays
        self.prev_button.on_click(lambda _: self._show(self.at - 1))
        self.next_button.on_click(lambda _: self._show(self.at + 1))
        self.check_button.on_click(lambda _: self._on_check())
        self.reveal_button.on_click(lambda _: self._on_reveal())
        for i, field in enumerate(self.fields):
            field.observe(lambda change, i=i: self._typed.__setitem__((self.at, i), change["new"]), "value")
        root = w.VBox([self.note, nav, w.HBox([column, self.view], layout=w.Layout(align_items="flex-start"))])
        root.add_class("gradlab-player")            # the player's CSS: the badge only on what needs a kernel
        root.add_class("gradlab-quiz")
        return root

    def _show(self, step):
        """Put the widget at `step` (never past a step still to answer)."""
        step = max(0, min(len(self.frames) - 1, step))
        if step > self.at and not all(self.answered(s) for s in range(step)):
            step = self.at
        self.at = step
        frame = self.frames[step]
        with using(self.lang):
            questions = self.questions_at(step)
            done = self.answered(step)
            self.view.value = self.view_html(step)
            self.asked.value, self.told.value = self._words(step)
            self.panels.value = f'<div class="gradlab-quiz-words">{panels_html(frame)}{legend_html()}</div>'
            self.step_label.value = f'<span class="gradlab-quiz-step">{_e(step_text(frame, len(self.frames)))}</span>'
            self.score_label.value = f'<span class="gradlab-quiz-score">{_e(self.score_text())}</span>'
            for i, row in enumerate(self.rows):
                if i < len(questions):
                    q = questions[i]
                    row.layout.display = "flex"
                    self.labels[i].value = f'<span class="gradlab-quiz-label">{_e(q.label)}</span>'
                    self.fields[i].value = self._typed.get((step, i), "")
                    self.fields[i].disabled = done
                else:
                    row.layout.display = "none"
            self.answer_row.layout.display = "flex" if questions else "none"
            self.hint.layout.display = "none" if done else "block"      # how to type: only while typing
            self.check_button.disabled = self.reveal_button.disabled = done
            self.prev_button.disabled = step == 0
            self.next_button.disabled = step == len(self.frames) - 1 or not done
            self.next_button.tooltip = None if done else t("quiz_locked")

    def _on_check(self):
        step = self.at
        questions = self.questions_at(step)
        typed = [self.fields[i].value for i in range(len(questions))]
        with using(self.lang):
            checks = self.submit(step, typed)
            problems = [(q, c) for q, c in zip(questions, checks) if c.right is None]
            self._feedback[step] = "".join(
                f'<div class="gradlab-quiz-problem">{_e(q.label) + ": " if len(questions) > 1 else ""}'
                f'{_e(c.message)}</div>' for q, c in problems)
        self._show(step)

    def _on_reveal(self):
        self.reveal(self.at)
        self._show(self.at)

    # --- without the widget -------------------------------------------------------------------------
    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
        # an untrusted notebook (or nbviewer) shows static_html instead of the widget: checking needs the kernel
        return widget_bundle(self, include, exclude)

    def static_html(self):
        """The plain sentence (run this cell), then the graph as a picture with no gradient written on it
        (the node table without `dot`): a quiz that gave its answers away before the kernel runs would be none."""
        p = self.player
        with using(self.lang):
            if self._static_svg is None and p.svg is not None:
                blank = replace(self.recording, edge_values={})
                self._static_svg = render_svg(graph_dot(blank, p.functions_only, p.rankdir), timeout=60) or ""
            if self._static_svg:
                n = len(self.frames) - 1
                picture = svg_img_html(self._static_svg, nodes=len(self.recording.nodes), alt=t("alt", n=n))
            else:
                picture = table_html(self.recording, self.frames[0])
            # the sentence first: the picture is tall, and what to do must be on screen
            return (f'<div class="gradlab-player-static gradlab-quiz-static" lang="{self.lang}">'
                    f'<div style="font-size:15px;font-weight:bold;margin-bottom:2px">&#9654; '
                    f'{_e(t("quiz_needs_kernel"))}</div>'
                    f'<div style="font-size:14px;margin-bottom:6px">{_e(t("quiz_intro", n=len(self.questions)))}</div>'
                    f'{picture}</div>')


def _e(text):
    return html.escape(text, quote=False)
