"""Reading a student's answer and checking it against the gradient backward really sent.

An answer is typed the way people write numbers and tensors: `4.5`, `[[4.5, 4.5], [4.5, 4.5]]`, PyTorch's or
numpy's printed forms (`tensor([0.25, 0.5])`, `array([[1., 2.]], dtype=float32)`, numpy's `[[1. 2.]\n [3. 4.]]`),
a little arithmetic (`0.75*3`, `1/3`), full-width digits or commas from a Korean or Chinese keyboard, and the
player's own '2.25 everywhere'.
Nothing is ever evaluated: the text is parsed with `ast` and only numbers, brackets and + - * / ** are read.
One number stands for a tensor with that value everywhere (the player writes such tensors '4.5 everywhere').

`judge` compares as `torch.allclose` does by default (rtol=1e-5, atol=1e-8), with nan equal to nan: a
gradient that is nan is predicted by typing nan. Answers that cannot count either way get a sentence, never
a traceback: unreadable text, the wrong shape, or a value right only to a few digits (rounded).
"""
import ast
import math
import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

from ..i18n import TEXT, t

RTOL, ATOL = 1e-5, 1e-8           # torch.allclose's defaults
NEARLY = 2e-3                     # relative: "right to about three digits", a rounded answer
MAX_TEXT = 4000                   # characters: a pasted tensor of a quiz is far smaller
_WRAPPERS = {"tensor", "array", "asarray", "as_tensor", "Tensor", "FloatTensor", "DoubleTensor"}
_NAMES = {"nan": math.nan, "inf": math.inf, "pi": math.pi}
_OPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
        ast.Div: lambda a, b: a / b, ast.Pow: lambda a, b: a ** b}
# numpy prints without commas ('[[1. 2.]\n [3. 4.]]', '[ 1. -2.]'): a space between two numbers (or
# rows) separates them. Only applied to text with brackets and no comma, so '0.75 * 3' stays arithmetic.
_NUMPY_GAP = re.compile(r"(?<=[\w.\])])\s+(?=[-+]?[\w.\[(])")
# The player writes a constant tensor '2.25 everywhere' ('2.25 (모든 원소)', '2.25（所有元素）'): a student who
# answers in the player's own words is understood, in any of its languages.
_EVERYWHERE = [tuple(part.strip() for part in unicodedata.normalize("NFKC", text).split("{v}"))
               for text in TEXT["everywhere"].values()]


class AnswerError(ValueError):
    """An answer that cannot be read; str() is the sentence shown to the student."""


def read_answer(answer):
    """The answer as a float64 array. `answer` is the typed text, or (from Python) a number, a nested
    list, a numpy array or a tensor. Raises AnswerError with a friendly sentence."""
    if not isinstance(answer, str):
        if hasattr(answer, "detach") and hasattr(answer, "numpy"):       # a gradlab or PyTorch tensor
            answer = answer.detach().numpy()
        try:
            return np.array(answer, dtype=np.float64)
        except (TypeError, ValueError):                                 # ragged lists, objects
            raise AnswerError(t("quiz_unreadable", text=_short(repr(answer)), why="")) from None
    text = unicodedata.normalize("NFKC", answer).strip()       # full-width １．５，［ from CJK keyboards
    text = text.replace("\u2212", "-").replace("×", "*").replace("÷", "/")
    for before, after in _EVERYWHERE:
        if after and text.endswith(after) and len(text) > len(after):
            text = text[:-len(after)].strip()
        if before and text.startswith(before) and len(text) > len(before):
            text = text[len(before):].strip()
    if not text:
        raise AnswerError(t("quiz_empty"))
    if len(text) > MAX_TEXT:
        raise AnswerError(t("quiz_unreadable", text=_short(text), why=""))
    if "..." in text or "…" in text:
        raise AnswerError(t("quiz_unreadable", text=_short(text), why=t("quiz_bad_dots")))
    text = re.sub(r",?\s*grad_fn=<[^>]*>", "", text)          # PyTorch's print ends with grad_fn=<...>
    if "[" in text and "," not in text:
        text = _NUMPY_GAP.sub(", ", text)
    try:
        node = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise AnswerError(t("quiz_unreadable", text=_short(answer), why="")) from None
    if isinstance(node, ast.Call) and _name(node.func) in _WRAPPERS and len(node.args) == 1:
        node = node.args[0]          # tensor([...], dtype=..., requires_grad=True): the data; keywords unread
    try:
        value = _value(node, answer)
    except RecursionError:
        raise AnswerError(t("quiz_unreadable", text=_short(answer), why="")) from None
    try:
        return np.array(value, dtype=np.float64)
    except ValueError:
        raise AnswerError(t("quiz_unreadable", text=_short(answer), why=t("quiz_bad_rows"))) from None


def _name(node):
    """'tensor' for `tensor`, `torch.tensor`, `np.array`; None for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _value(node, text):
    """Numbers and nested lists from the parsed answer; anything else is refused with its own words."""
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return float(node.value)
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_value(e, text) for e in node.elts]
    name = _name(node)
    if name is not None and name.lower() in _NAMES and (isinstance(node, ast.Name) or
                                                         _name(node.value) in ("np", "numpy", "math", "torch")):
        return _NAMES[name.lower()]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _number(node.operand, text)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        a, b = _number(node.left, text), _number(node.right, text)
        if isinstance(node.op, ast.Pow) and (abs(b) > 64 or abs(a) > 1e6):
            raise AnswerError(t("quiz_unreadable", text=_short(text), why=t("quiz_bad_math")))
        try:
            return float(_OPS[type(node.op)](a, b))
        except (ZeroDivisionError, OverflowError):
            raise AnswerError(t("quiz_unreadable", text=_short(text), why=t("quiz_bad_math"))) from None
    piece = ast.get_source_segment(text, node) if isinstance(text, str) else None
    raise AnswerError(t("quiz_unreadable", text=_short(text), why=t("quiz_bad_word", word=_short(piece or "?", 20))))


def _number(node, text):
    v = _value(node, text)
    if isinstance(v, list):          # arithmetic on whole lists ([1, 2] * 2) means something else in Python
        raise AnswerError(t("quiz_unreadable", text=_short(text), why=t("quiz_bad_word", word="[...]")))
    return v


def _short(text, limit=40):
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


@dataclass(frozen=True)
class Verdict:
    """How an answer compares: right True/False, or None when it cannot count (see `problem`)."""
    right: Optional[bool]
    answer: Any = None           # the answer read, as an array of the expected shape (None if unreadable)
    problem: str = ""            # the sentence for an answer that does not count


def shape_text(shape):
    return t("quiz_one_number") if len(shape) == 0 else t("shape", shape="×".join(map(str, shape)) or "1")


def judge(answer, expected):
    """Compare an answer (text, number, list, array) with the gradient backward sent."""
    try:
        got = read_answer(answer)
    except AnswerError as error:
        return Verdict(None, problem=str(error))
    want = np.asarray(expected, dtype=np.float64)
    if got.size == 1:
        # one number: that value everywhere ('4.5' for a 2x2 of 4.5; '0.25' or '[0.25]' for a scalar)
        got = np.broadcast_to(got.reshape(()), want.shape)
    elif got.shape != want.shape:
        # a gradient always has its input's shape: a slip of typing, said and not scored (the question shows it)
        return Verdict(None, problem=t("quiz_shape", got=shape_text(got.shape), want=shape_text(want.shape)))
    if np.allclose(got, want, rtol=RTOL, atol=ATOL, equal_nan=True):
        return Verdict(True, got)
    if np.allclose(got, want, rtol=NEARLY, atol=1e-6, equal_nan=True):
        # 0.333 for 1/3: right but rounded; torch.allclose would say no, and a wrong mark would teach nothing
        return Verdict(None, got, t("quiz_nearly"))
    return Verdict(False, got)
