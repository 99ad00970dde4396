"""DOT text -> SVG (or PNG/PDF) with Graphviz's `dot` program; the last step of walk -> data -> DOT -> render.

`dot` is an operating-system program (the pip package `graphviz` does not include it). Without it,
drawings fall back to the text tree plus INSTALL_HINT; nothing here raises inside a notebook
display (render_svg returns None), only `render()` (used by `.save()`) raises, with the hint.
"""
import base64
import html
import os
import re
import shutil
import subprocess

INSTALL_HINT = ("Install Graphviz to see the drawing: apt-get install graphviz / brew install graphviz / "
                "conda install graphviz")
TIMEOUT = 8.0       # seconds; a drawing that takes longer is shown as text instead (a cell must not freeze)


class GraphvizNotFound(RuntimeError):
    """The `dot` program is not on PATH."""


def which_dot():
    """Path of the `dot` program, or None when Graphviz is not installed."""
    return shutil.which("dot")


def render(dot_source, format="svg", timeout=None):
    """Run `dot -T<format>` on the source and return the bytes. Raises GraphvizNotFound or RuntimeError."""
    if not re.fullmatch(r"[a-z0-9]+(:[a-z0-9]+)*", format):
        raise ValueError(f"bad output format {format!r}")
    timeout = TIMEOUT if timeout is None else timeout
    dot = which_dot()
    if dot is None:
        raise GraphvizNotFound(f"The Graphviz program `dot` is not on PATH. {INSTALL_HINT}")
    try:
        done = subprocess.run([dot, f"-T{format}"], input=dot_source.encode("utf-8"), capture_output=True,
                              timeout=timeout, env=_env())
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"Graphviz `dot` took more than {timeout:g} s; try draw(..., max_nodes=...) "
                           "with a smaller number") from None
    if done.returncode != 0:
        raise RuntimeError("Graphviz `dot` failed: " + done.stderr.decode("utf-8", "replace").strip())
    return done.stdout


def render_svg(dot_source, timeout=None, raise_errors=False):
    """SVG text ready to put inside HTML (no XML prolog), or None if `dot` is missing, fails or times out."""
    try:
        svg = render(dot_source, "svg", timeout).decode("utf-8")
    except Exception:
        if raise_errors:
            raise
        return None
    start = svg.find("<svg")
    return svg[start:] if start >= 0 else None


def svg_img_html(svg, nodes=None, alt="autograd graph"):
    """The SVG as an <img> with a data: URI, inside <div class="gradlab-graph">.

    Why not inline <svg>: a notebook opened untrusted (from git, Binder, nbgitpuller, a teacher's file)
    has its HTML outputs sanitized, which drops <svg> elements and leaves their text ("n1 -> n0 ...").
    An <img> with a data URI survives the sanitizer, and nbviewer, GitHub, VS Code and HTML exports show it too.
    """
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    count = "" if nodes is None else f' data-gradlab-nodes="{int(nodes)}"'
    return (f'<div class="gradlab-graph"{count} style="overflow:auto;max-width:100%">'
            f'<img src="data:image/svg+xml;base64,{data}" alt="{html.escape(alt, quote=True)}" '
            'style="max-width:100%;height:auto"></div>')


def svg_from_img_html(page):
    """The SVG text inside the first <img> made by svg_img_html (for tests and tools), or None."""
    m = re.search(r'src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"', page)
    return base64.b64decode(m.group(1)).decode("utf-8") if m else None


def _env():
    env = dict(os.environ)
    env.setdefault("LC_ALL", "C.UTF-8")
    return env
