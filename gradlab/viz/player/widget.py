"""The player: `animate_backward(out)` runs the real backward and returns a `BackwardPlayer`.

    Play  ◀ prev  [====slider====]  next ▶  [step]
    Stack of frames: caption, the graph (drawn ONCE by `dot`, restyled per frame), the .grad panels

Frames are switched in the browser (`jslink`/`jsdlink`), so the player keeps working after the kernel
stops and inside an HTML export of the notebook. `save_html` writes one file with no URL in it;
`save_gif` one image per frame. ipywidgets and Pillow are optional: imported only when used.
"""
import hashlib
import html
import io

from ...autograd.node import SECOND_BACKWARD_ERROR
from ..i18n import get_language, resolve, t, using
from ..render import render, render_svg, svg_img_html
from .captions import step_text, sum_text, value_text
from .drawing import graph_dot
from .html import clean_svg, frame_html, page, table_html, widget_bundle
from .quiz import BackwardQuiz
from .recording import MAX_NODES, prepare, record

DOT_TIMEOUT = 60.0       # seconds: a player is built once and replayed, so it may take longer than draw()


def _dot(source, fmt):
    """`dot -T<fmt>` output, or None when Graphviz is missing, fails or takes too long (the table then)."""
    try:
        return render(source, fmt, timeout=DOT_TIMEOUT)
    except Exception:
        return None


class BackwardPlayer:
    """Frames of one backward plus their views: `.widget` (ipywidgets), `save_html`, `save_gif`."""

    def __init__(self, recording, functions_only=False, rankdir="TB", interval_ms=1500, lang=None):
        self.lang = recording.lang if lang is None else lang
        with using(self.lang):
            self.lang = get_language()
            self._init(recording, functions_only, rankdir, interval_ms)

    def _init(self, recording, functions_only, rankdir, interval_ms):
        self.recording = recording
        self.frames = recording.frames
        self.functions_only = functions_only
        self.rankdir = rankdir
        self.interval_ms = interval_ms
        self.dot_source = graph_dot(recording, functions_only, rankdir)
        raw = render_svg(self.dot_source, timeout=DOT_TIMEOUT)
        self.svg = clean_svg(raw) if raw else None
        self._raw_svg = raw                  # keeps xmlns: usable as an <img>
        digest = hashlib.sha1((self.dot_source + "".join(f.caption for f in self.frames)).encode()).hexdigest()
        self._uid = digest[:8]
        self.frames_html = [frame_html(recording, f, self.svg, self._uid, len(self.frames)) for f in self.frames]
        self._widget = None
        self.links = ()

    def __len__(self):
        return len(self.frames)

    def __repr__(self):
        return f"<gradlab backward player: {len(self.frames)} steps>"

    @property
    def widget(self):
        if self._widget is None:
            with using(self.lang):
                self._widget = self._build_widget()
        return self._widget

    def _build_widget(self):
        import ipywidgets as w
        last = len(self.frames) - 1
        play = w.Play(value=0, min=0, max=last, step=1, interval=self.interval_ms, description=t("play"),
                      show_repeat=False)
        slider = w.IntSlider(value=0, min=0, max=last, step=1, description=t("step"),
                             continuous_update=True, layout=w.Layout(width="320px"))
        prev = w.Button(description=t("prev"), layout=w.Layout(width="96px"), tooltip=t("prev_tip"))
        nxt = w.Button(description=t("next"), layout=w.Layout(width="96px"), tooltip=t("next_tip"))
        # prev/next need the kernel (Buttons have no client-side action); Play, the slider and the
        # step box (its ▲/▼ arrows step one frame) do not: they are linked in the browser.
        prev.on_click(lambda _: setattr(slider, "value", max(slider.min, slider.value - 1)))
        nxt.on_click(lambda _: setattr(slider, "value", min(slider.max, slider.value + 1)))
        stepper = w.BoundedIntText(value=0, min=0, max=last, step=1, layout=w.Layout(width="64px"),
                                   continuous_update=True,
                                   tooltip=t("stepper_tip"))
        stack = w.Stack([w.HTML(value=h) for h in self.frames_html], selected_index=0)
        self.links = (w.jslink((play, "value"), (slider, "value")),
                      w.jsdlink((slider, "value"), (stack, "selected_index")),
                      w.jslink((slider, "value"), (stepper, "value")))
        self.play, self.slider, self.prev_button, self.next_button, self.stack = play, slider, prev, nxt, stack
        self.stepper = stepper
        for button in (prev, nxt):
            button.add_class("gradlab-needs-kernel")        # (keeps ipywidgets' disconnected badge: see html.py)
        player = w.VBox([w.HBox([play, prev, slider, nxt, stepper]), stack])
        player.add_class("gradlab-player")
        return player

    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
        return widget_bundle(self, include, exclude)

    def static_html(self):
        """The graph as an <img> (or the node table without `dot`) plus one line: run the cell to play."""
        with using(self.lang):
            n = len(self.frames) - 1
            if self._raw_svg is not None:
                picture = svg_img_html(self._raw_svg, nodes=len(self.recording.nodes), alt=t("alt", n=n))
            else:
                picture = table_html(self.recording, self.frames[0])
            return (f'<div class="gradlab-player-static" lang="{self.lang}">{picture}'
                    f'<div style="font-size:13px;margin-top:4px">&#9654; {html.escape(t("run_to_play", n=n))}'
                    '</div></div>')

    # ---------------------------------------------------------------------------------------------
    def save_html(self, path):
        """One self-contained file: frames as inline HTML, a tiny player in plain JS, no URL at all."""
        with using(self.lang):
            text = page(self.frames_html, self.lang, self.interval_ms)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
        return path

    def save_gif(self, path, fps=1):
        """An animated GIF, one image per frame: the graph via `dot -Tpng` with that frame's colours,
        the caption and the .grad panels underneath."""
        from PIL import Image
        with using(self.lang):
            images = [self._frame_image(f) for f in self.frames]
        width = max(i.width for i in images)
        height = max(i.height for i in images)
        padded = []
        for img in images:
            canvas = Image.new("RGB", (width, height), "white")
            canvas.paste(img, (0, 0))
            padded.append(canvas)
        padded[0].save(path, save_all=True, append_images=padded[1:], duration=int(1000 / fps),
                       loop=0, optimize=False, disposal=1)
        return path

    def _frame_image(self, frame):
        from PIL import Image, ImageDraw
        png = _dot(graph_dot(self.recording, self.functions_only, self.rankdir, frame=frame), "png")
        graph = Image.open(io.BytesIO(png)).convert("RGB") if png else None
        font = _font(15)
        small = _font(13)
        width = max(graph.width if graph else 0, 640)
        lines = [(step_text(frame, len(self.frames)), small, "#757575")]
        lines += [(line, font, "#212121") for line in _wrap(frame.caption, font, width - 24)]
        for p in frame.grads:
            if p.added is None:
                text = f"{p.leaf}.grad = {value_text(p.old)}"
            else:
                text = f"{p.leaf}.grad: {sum_text([p.old, p.added], p.new)}"
            lines += [(line, small, "#e65100" if p.just_now else "#1565c0") for line in _wrap(text, small, width - 24)]
        if graph is None:
            lines += [(f"{n.id}: {n.title}", small, "#424242") for n in self.recording.nodes]
        text_height = sum(_line_height(f) for _, f, _ in lines) + 24
        img = Image.new("RGB", (width, (graph.height if graph else 0) + text_height), "white")
        draw = ImageDraw.Draw(img)
        y = 10
        for text, f, color in lines:
            draw.text((12, y), text, fill=color, font=f)
            y += _line_height(f)
        if graph is not None:
            img.paste(graph, ((width - graph.width) // 2, text_height))
        return img

    # Handy in a notebook without widgets.
    def _repr_html_(self):
        return self.frames_html[-1]


_CJK_FONTS = ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
              "NotoSansCJK-Regular.ttc", "wqy-microhei.ttc", "AppleSDGothicNeo.ttc", "msyh.ttc", "malgun.ttf")


def _font(size):
    from PIL import ImageFont
    cjk = _CJK_FONTS if get_language() in ("ko", "zh") else ()     # the GIF's captions in Korean or Chinese
    for name in cjk + ("DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"):
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    try:
        return ImageFont.load_default(size=size)
    except TypeError:
        return ImageFont.load_default()


def _line_height(font):
    return int(getattr(font, "size", 12) * 1.45)


def _wrap(text, font, width):
    words, lines, line = text.split(" "), [], ""
    for word in words:
        trial = f"{line} {word}".strip()
        if line and font.getlength(trial) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    return lines + ([line] if line else [])


_SPENT_GRAPH_HINT = (
    "\n\ngradlab: animate_backward(out) runs out.backward() itself, and backward already ran through this "
    "graph (an earlier out.backward() or animate_backward), which freed it. Do one of these: run the cells "
    "that build the graph again and call viz.animate_backward(out) in place of out.backward(); or call "
    "out.backward(retain_graph=True) the first time; or keep the player you already made and replay it.")


def animate_backward(out, gradient=None, retain_graph=False, names=None, functions_only=False,
                     rankdir="TB", max_nodes=MAX_NODES, inputs=None, interval_ms=1500, lang=None, quiz=False):
    """Run `out.backward(...)` for real and return a player that replays it step by step.

    lang: the player's language, 'en', 'ko' or 'zh' (captions, legend, buttons, graph labels); None uses
    the global setting, `viz.set_language(...)`, English by default.

    quiz=True returns a `BackwardQuiz` instead: at each step where a node sends gradients the student
    predicts them before they are shown (checking needs the running kernel); `quiz.check(step, answer)`
    does the same from Python.

    Checks happen before anything runs or any widget exists: a tensor with no graph, a non-scalar
    output without `gradient` raise exactly what `backward()` raises (backward refuses them before it
    starts), a graph already freed raises backward's error with what to do; a graph with more than
    `max_nodes` drawn nodes raises a ValueError naming the options.
    """
    resolve(lang)                         # a bad lang= is refused before backward runs
    try:
        plan = prepare(out, inputs, names, functions_only, max_nodes)
    except RuntimeError as error:
        if str(error) != SECOND_BACKWARD_ERROR:
            raise
        # The tutorial's order (out.backward(), then the player) or a second player on the same graph:
        # say it in gradlab's words, under this one frame rather than the engine's internals.
        raise RuntimeError(SECOND_BACKWARD_ERROR + _SPENT_GRAPH_HINT) from None
    with using(lang) as lang:
        rec = record(out, gradient, retain_graph, names, inputs, functions_only, max_nodes, plan=plan)
        player = BackwardPlayer(rec, functions_only=functions_only, rankdir=rankdir, interval_ms=interval_ms,
                                lang=lang)
        return BackwardQuiz(player) if quiz else player
