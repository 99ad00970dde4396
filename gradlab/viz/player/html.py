"""A frame as HTML: the text column (step, caption, .grad panels, details, legend) beside the graph.

The graph's SVG is the same in every frame (drawn once, drawing.py); each frame brings a scoped <style>
block that colours its nodes and shows the edge values sent so far. Without `dot` the graph is a table
of the nodes and their state. `page` is the self-contained file of save_html: no kernel, no URL.
"""
import html
import re

from ..i18n import get_language, t
from ..jacobian import vjp_html
from .captions import step_text, sum_text, value_text
from .drawing import COLORS, frame_state


def clean_svg(svg):
    """Inline-ready SVG: no XML prolog, DOCTYPE, comments, ids or namespace URLs (the HTML parser
    puts <svg> in the SVG namespace anyway, and the exported file must name no external URL)."""
    svg = svg[svg.index("<svg"):]
    svg = re.sub(r"<!--.*?-->", "", svg, flags=re.S)
    svg = re.sub(r'\s+xmlns(:\w+)?="[^"]*"', "", svg)
    svg = re.sub(r'\s+id="[^"]*"', "", svg)
    svg = svg.replace("&#45;", "-")
    return re.sub(r"\n\s*\n", "\n", svg).strip()


# Layout: the text (step, caption, .grad panels, details, legend) in a fixed-size column on the left, the
# graph beside it scaled to fit the same height. A real network's caption and six .grad panels then never
# push the running node below the fold (at 1280x800 the whole frame fits on screen), and nothing moves
# between steps: the column keeps its size and scrolls inside itself when a step has much to say.
# The frame has its own light background, so its colours keep their contrast in JupyterLab's dark theme.
FRAME_HEIGHT = 540      # px: the text column's height and the graph's largest height
# ipywidgets badges every widget shown from a saved notebook (before its cell runs again) as
# disconnected from the kernel: a red broken-link icon. The player's boxes, Play, slider and step box
# work without a kernel (linked in the browser), so only ◀/▶, which do need it, keep their badge.
BASE_CSS = """
.gradlab-player.jupyter-widgets-disconnected::before,
.gradlab-player .jupyter-widgets-disconnected:not(.gradlab-needs-kernel)::before{display:none}
.gradlab-frame{font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;color:#212121;max-width:1200px;
 background:#fff;padding:6px;border-radius:4px}
.gradlab-layout{display:flex;align-items:flex-start;gap:12px}
.gradlab-text{flex:0 0 340px;height:__H__px;overflow-y:auto}
.gradlab-layout>.gradlab-graph{flex:1 1 auto;min-width:0;text-align:center}
.gradlab-caption{font-size:15px;line-height:1.4;padding:8px 12px;margin:4px 0 8px 0;background:#fff8e1;
 border-left:5px solid #ffb300;border-radius:4px}
.gradlab-rule{font-family:Menlo,Consolas,'DejaVu Sans Mono',monospace;font-size:13px;margin-top:6px;color:#4a148c;
 overflow-wrap:anywhere}
.gradlab-rule.gradlab-chain{font-family:inherit;font-size:14px}
.gradlab-step{font-size:12px;color:#616161;margin-bottom:2px}
.gradlab-graph svg{max-width:100%;max-height:__H__px;width:auto;height:auto}
.gradlab-panels{display:flex;flex-wrap:wrap;gap:8px;margin-top:6px}
.gradlab-panel{border:1px solid #90caf9;border-radius:6px;padding:6px 10px;background:#f5fbff;font-size:13px}
.gradlab-panel.gradlab-now{border:2px solid #e65100;background:#fff3e0}
.gradlab-panel b{font-family:monospace}
.gradlab-legend{font-size:12px;color:#555;margin:6px 0 2px 0}
.gradlab-legend span{padding:1px 6px;border-radius:3px;margin-right:4px}
.gradlab-details{font-size:12px;color:#555;margin-top:6px}
.gradlab-table{border-collapse:collapse;font-size:13px}
.gradlab-table td,.gradlab-table th{border:1px solid #ddd;padding:3px 8px;text-align:left}
""".replace("__H__", str(FRAME_HEIGHT)).strip()


def legend_html():
    """The colour legend, in the active language."""
    return ('<div class="gradlab-legend">'
            f'<span style="background:{COLORS["run_fill"]}">{t("running_now")}</span> '
            f'<span style="background:{COLORS["wait_fill"]}">{t("collecting")}</span> '
            f'<span style="background:{COLORS["done_fill"]}">{t("done")}</span> '
            f'<span style="color:{COLORS["hot"]};font-weight:bold">{t("sent_now")}</span></div>')


def frame_css(scope, rec, frame):
    """The per-frame <style>: colours nodes and edges of the shared SVG, shows the edge values sent so far."""
    c = COLORS
    state = frame_state(rec, frame)
    rules = []
    shapes = "path,polygon,ellipse"
    for key, kind in state["nodes"].items():
        sel = ",".join(f".{scope} g.gl_{key}>{s}" for s in shapes.split(","))
        width = 3 if kind == "run" else 1.5
        rules.append(f"{sel}{{fill:{c[kind + '_fill']};stroke:{c[kind + '_line']};stroke-width:{width}px}}")
    all_edges = ["root"] + [e.id for e in rec.edges] + ["leaf_" + n for n, _ in rec.leaves]
    for key in all_edges:
        kind = state["edges"].get(key, "unsent")
        g = f".{scope} g.gl_e{key}"
        if kind == "unsent":
            rules.append(f"{g} text{{visibility:hidden}}")
        elif kind == "hot":
            rules.append(f"{g} path{{stroke:{c['hot']};stroke-width:3px}}"
                         f"{g} polygon{{stroke:{c['hot']};fill:{c['hot']}}}"
                         f"{g} text{{fill:{c['hot']};font-weight:bold}}")
        else:
            rules.append(f"{g} path{{stroke:#616161}}{g} polygon{{stroke:#616161;fill:#616161}}")
    return "\n".join(rules)


def panels_html(frame):
    out = []
    for p in frame.grads:
        name = html.escape(p.leaf)
        if p.added is None:
            body = (f"<b>{name}.grad</b> = {html.escape(value_text(p.old))}"
                    + html.escape(t("from_earlier") if p.old is not None else t("nothing_yet")))
        else:
            body = f"<b>{name}.grad</b>: {html.escape(sum_text([p.old, p.added], p.new))}"
            if p.old is None:
                body += html.escape(t("store_g"))
        cls = "gradlab-panel gradlab-now" if p.just_now else "gradlab-panel"
        out.append(f'<div class="{cls}">{body}</div>')
    return '<div class="gradlab-panels">' + "".join(out) + "</div>"


def details_html(rec, frame):
    by_id = {n.id: n for n in rec.nodes}
    rows = []
    if frame.node is not None:
        got = ", ".join(value_text(g) for g in frame.received if g is not None) or t("nothing")
        rows.append(html.escape(t("received", value=got)))
    for s in frame.sent:
        rows.append(html.escape(t("input_to", nr=s.edge.input_nr, title=by_id[s.edge.src].title,
                                  value=value_text(s.value))))
    for b in frame.buffers:
        text = sum_text(b.contributions, b.total) if len(b.contributions) > 1 else value_text(b.total)
        state = t("complete") if b.remaining == 0 else t("waits_for", n=b.remaining)
        rows.append(html.escape(t("buffer", title=by_id[b.node].title, text=text, state=state)))
    return '<div class="gradlab-details">' + " · ".join(rows) + "</div>" if rows else ""


def table_html(rec, frame):
    """Fallback graph view without `dot`: the nodes in order with their state."""
    state = frame_state(rec, frame)["nodes"]
    names = {"run": t("running_now"), "done": t("done"), "wait": t("collecting"), None: ""}
    rows = []
    for n in rec.nodes:
        kind = state.get(n.id)
        color = COLORS[kind + "_fill"] if kind else "white"
        label = html.escape(n.title + (f" ({n.tensor})" if n.tensor and not n.is_accumulate else "")
                            + (f" → {n.tensor}.grad" if n.is_accumulate and n.tensor else ""))
        rows.append(f'<tr style="background:{color}"><td>{n.id}</td><td>{label}</td><td>{names[kind]}</td></tr>')
    return (f'<table class="gradlab-table"><tr><th>#</th><th>{t("col_node")}</th><th>{t("col_state")}</th></tr>'
            + "".join(rows) + "</table>")


def start_vjp_html(rec, frame):
    """At the start of a backward(gradient=v) on small tensors: vᵀ · J = vᵀJ, what the steps will add up to."""
    if frame.index != 0 or rec.vjp is None:
        return ""
    return f'<div class="gradlab-start-vjp" style="margin:4px 0 8px 0">{vjp_html(rec.vjp, compact=True)}</div>'


def caption_html(frame):
    """The caption; its chain-rule line (the end of `frame.caption`) set apart in a code font."""
    if not frame.rule:
        return html.escape(frame.caption)
    sentence = frame.caption[:len(frame.caption) - len(frame.rule)]
    kind = "gradlab-rule" if frame.formulas else "gradlab-rule gradlab-chain"    # (a leaf's whole chain is prose)
    return f'{html.escape(sentence)}<div class="{kind}">{html.escape(frame.rule.strip())}</div>'


def frame_html(rec, frame, svg, uid, n_frames, caption=True, secret=False):
    """One frame: the text column and the graph (the shared SVG, or the table without `dot`).
    The quiz (quiz.py) shows the caption beside its question (caption=False), and asks before it tells:
    secret=True keeps what this step sends unwritten (its edges are drawn hot, their values hidden), and
    the vᵀJ panel of the start (the sum of every answer) is the player's only (caption=True)."""
    scope = f"gl{uid}f{frame.index}"
    graph = table_html(rec, frame) if svg is None else svg
    css = frame_css(scope, rec, frame) if svg is not None else ""
    if secret and svg is not None:
        css += "".join(f"\n.{scope} g.gl_e{s.edge.id} text{{visibility:hidden}}" for s in frame.sent)
    words = f'<div class="gradlab-caption">{caption_html(frame)}</div>' if caption else ""
    vjp = start_vjp_html(rec, frame) if caption else ""
    return (f'<div class="gradlab-frame {scope}" lang="{get_language()}"><style>{BASE_CSS}\n{css}</style>'
            '<div class="gradlab-layout"><div class="gradlab-text">'
            f'<div class="gradlab-step">{step_text(frame, n_frames)}</div>{words}'
            f"{panels_html(frame)}{vjp}{'' if secret else details_html(rec, frame)}{legend_html()}</div>"
            f'<div class="gradlab-graph">{graph}</div></div></div>')


def widget_bundle(shown, include, exclude):
    """The widget's own output plus what a notebook shows when it cannot run the widget (opened untrusted:
    from git, Binder, a teacher's file; nbviewer, GitHub): `shown.static_html()`, a picture and one line
    on what to do. A live or trusted JupyterLab prefers the widget-view output over it."""
    bundle = shown.widget._repr_mimebundle_(include=include, exclude=exclude)
    if isinstance(bundle, tuple):
        bundle = bundle[0]
    bundle = dict(bundle or {})
    bundle["text/plain"] = repr(shown)
    bundle["text/html"] = shown.static_html()
    return bundle


def page(frames_html, lang, interval_ms):
    """The whole save_html file: the frames as inline HTML and a tiny player in plain JS."""
    frames = "\n".join(
        f'<div class="gl-slide" data-step="{i}"{" hidden" if i else ""}>{h}</div>'
        for i, h in enumerate(frames_html)
    )
    words = {"__LANG__": lang, "__TITLE__": t("page_title"), "__PLAY__": html.escape(t("play").lower()),
             "__PAUSE__": html.escape(t("pause")), "__PREV__": html.escape(t("prev")),
             "__NEXT__": html.escape(t("next")), "__STEPWORD__": html.escape(t("step")),
             "__STEPLABEL__": t("step_slash", i="{i}", n="{n}").replace('"', "")}
    text = _PAGE
    for key, value in words.items():
        text = text.replace(key, value)
    return text.replace("__FRAMES__", frames).replace("__LAST__", str(len(frames_html) - 1)) \
               .replace("__INTERVAL__", str(int(interval_ms)))


_PAGE = """<!DOCTYPE html>
<html lang="__LANG__"><head><meta charset="utf-8"><title>__TITLE__</title>
<style>
body{margin:16px;font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif}
.gl-controls{display:flex;align-items:center;gap:8px;margin-bottom:8px}
.gl-controls button{font-size:14px;padding:4px 10px;border:1px solid #bbb;border-radius:4px;background:#fafafa;cursor:pointer}
.gl-controls input{width:320px}
.gl-label{font-size:13px;color:#555}
</style></head>
<body>
<div class="gl-controls">
<button id="gl-play" type="button">&#9654; __PLAY__</button>
<button id="gl-prev" type="button">__PREV__</button>
<input id="gl-slider" type="range" min="0" max="__LAST__" value="0" step="1" aria-label="__STEPWORD__">
<button id="gl-next" type="button">__NEXT__</button>
<span class="gl-label" id="gl-label"></span>
</div>
__FRAMES__
<script>
(function () {
  var last = __LAST__, interval = __INTERVAL__, step = 0, timer = null;
  var slides = document.querySelectorAll(".gl-slide");
  var slider = document.getElementById("gl-slider"), play = document.getElementById("gl-play");
  var label = document.getElementById("gl-label");
  function show(i) {
    step = Math.max(0, Math.min(last, i));
    for (var k = 0; k < slides.length; k++) { slides[k].hidden = (k !== step); }
    slider.value = step;
    label.textContent = "__STEPLABEL__".replace("{i}", step).replace("{n}", last);
  }
  function stop() { if (timer) { clearInterval(timer); timer = null; } play.innerHTML = "&#9654; __PLAY__"; }
  function start() {
    if (step >= last) { show(0); }
    play.innerHTML = "&#10074;&#10074; __PAUSE__";
    timer = setInterval(function () { if (step >= last) { stop(); } else { show(step + 1); } }, interval);
  }
  play.onclick = function () { if (timer) { stop(); } else { start(); } };
  document.getElementById("gl-prev").onclick = function () { stop(); show(step - 1); };
  document.getElementById("gl-next").onclick = function () { stop(); show(step + 1); };
  slider.oninput = function () { stop(); show(parseInt(slider.value, 10)); };
  document.addEventListener("keydown", function (e) {
    if (e.target === slider) { return; }
    if (e.key === "ArrowRight") { stop(); show(step + 1); }
    if (e.key === "ArrowLeft") { stop(); show(step - 1); }
  });
  show(0);
})();
</script>
</body></html>
"""
