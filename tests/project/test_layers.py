"""gradlab's layers import one way (ARCHITECTURE.md): no module imports, at module level, a module of a
higher layer. Checked on the source with `ast`, so a new import that points upward fails here."""
import ast
import pathlib
import sys

import gradlab

ROOT = pathlib.Path(gradlab.__file__).parent

# lowest first; a module belongs to the layer with the longest matching prefix
LAYERS = [
    ("basics", ["_dtype", "_size", "_device", "_signatures", "_argparse"]),
    ("autograd core", ["autograd"]),
    ("ops", ["ops"]),
    ("tensor", ["tensor", "creation", "random", "return_types"]),
    ("library", ["nn", "optim", "utils", "backends", "cuda"]),
    ("display", ["display"]),
    ("viz", ["viz"]),
]


def _layer(module):
    best = None
    for i, (_, prefixes) in enumerate(LAYERS):
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and (best is None or len(p) > best[1]):
                best = (i, len(p))
    return None if best is None else best[0]


def _is_module(dotted):
    path = ROOT / dotted.replace(".", "/")
    return path.with_suffix(".py").exists() or path.is_dir()


def _module_level_imports(path):
    """(importing module, imported module) for each relative import at the top level of the file."""
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    package = parts[:-1]
    if parts[-1] == "__init__":
        parts = package = parts[:-1]
    module = ".".join(parts)
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[:len(package) - (node.level - 1)]
            target = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:             # `from ..autograd import grad_mode` imports a submodule
                sub = ".".join(base + ([node.module] if node.module else []) + [alias.name])
                yield module, (sub if _is_module(sub) else target)


def test_every_module_has_a_layer():
    missing = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*.py")
               if p.name != "__init__.py" or p.parent != ROOT
               if _layer(".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")) is None]
    assert not missing, f"modules with no layer in LAYERS (add them): {missing}"


def test_imports_point_one_way():
    upward = []
    for path in ROOT.rglob("*.py"):
        for module, target in _module_level_imports(path):
            if not module:                       # gradlab/__init__.py sits on top of everything
                continue
            low, high = _layer(module), _layer(target)
            if low is not None and high is not None and high > low:
                upward.append(f"{module} ({LAYERS[low][0]}) imports {target} ({LAYERS[high][0]})")
    assert not upward, "imports against the layers:\n" + "\n".join(sorted(upward))


def test_the_check_sees_an_upward_import(tmp_path, monkeypatch):
    """The check can fail: a low module importing viz is reported."""
    fake = tmp_path / "gradlab"
    (fake / "ops").mkdir(parents=True)
    (fake / "viz").mkdir()
    (fake / "ops" / "bad.py").write_text("from ..viz import graph\n")
    (fake / "viz" / "graph.py").write_text("")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", fake)
    assert list(_module_level_imports(fake / "ops" / "bad.py")) == [("ops.bad", "viz.graph")]
    assert _layer("viz.graph") > _layer("ops.bad")
