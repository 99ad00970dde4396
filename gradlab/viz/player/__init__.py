"""Backward, step by step: watch `.grad` fill in.

`animate_backward(out)` runs the REAL `out.backward()` while listening to the engine's events
(`gradlab.autograd.events`) and returns a player that replays it. Four small modules, each usable alone:

    recording.py   the walk, the checks, the events -> Frames (plain data; what the tests check)
    captions.py    one caption per frame, values written for people, in en/ko/zh (viz/i18n.py)
    drawing.py     the graph's DOT (viz/dot.py's writer; rendered once by viz/render.py), frame states
    html.py        one frame's HTML/CSS, the legend, the save_html page
    widget.py      BackwardPlayer (ipywidgets, save_html, save_gif) and animate_backward
    quiz.py        BackwardQuiz: predict each gradient before it is shown (animate_backward(..., quiz=True))
    answers.py     reading a typed answer ('4.5', '[[1, 2], [3, 4]]', 'tensor([...])') and judging it
"""
from .answers import AnswerError, judge, read_answer
from .captions import sum_text, value_text
from .drawing import COLORS, frame_state, graph_dot
from .html import BASE_CSS, FRAME_HEIGHT, legend_html
from .quiz import BackwardQuiz, Check, Question
from .recording import (MAX_NODES, Buffer, Frame, GradPanel, NodeInfo, Recording, SentGradient, prepare, record,
                        record_backward)
from .widget import BackwardPlayer, animate_backward

__all__ = ["animate_backward", "record_backward", "BackwardPlayer", "BackwardQuiz", "Check", "Question",
           "read_answer", "judge", "AnswerError", "legend_html", "value_text", "sum_text",
           "record", "prepare", "Recording", "Frame", "NodeInfo", "SentGradient", "Buffer", "GradPanel",
           "frame_state", "graph_dot", "COLORS", "BASE_CSS", "FRAME_HEIGHT", "MAX_NODES"]
