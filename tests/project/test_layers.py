"""gradlab's layers import one way (ARCHITECTURE.md): no module imports, at module level, a module of a
higher layer. Checked on the source with `ast`, so a new import that points upward fails here."""
import ast
import pathlib
import sys

import gradlab

ROOT = pathlib.Path(gradlab.__file__).parent

# lowest first; a module belongs to the layer with the longest matching prefix
LAYERS = [
    ("basics", ["_ctype", "_warnings", "_dtype", "_size", "_device", "_signatures", "_argparse", "_alias", "_parallel"]),
    ("display", ["display"]),
    ("tensor core", ["_tensor_core", "_tensor_data"]),
    ("autograd core", ["autograd"]),
    ("ops", ["ops"]),
    ("tensor", ["tensor", "_tensor_methods", "_functions", "creation", "random", "return_types", "serialization"]),
    ("library", ["autograd.functional", "autograd.forward_ad", "nn", "optim", "utils", "backends", "cuda", "linalg", "special", "accelerator", "testing", "version",
                 "functional", "distributions", "func", "fft", "compiler", "_dynamo"]),
    ("viz", ["viz"]),
    ("command line", ["__main__"]),
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


def _module_of(path):
    """The dotted name of a source file under ROOT ("ops.registry"; a package's __init__ is the package)
    and the package its relative imports start from, as a list of names."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    package = parts[:-1]
    if parts[-1] == "__init__":
        parts = package = parts[:-1]
    return ".".join(parts), package


def _module_level_imports(path):
    """(importing module, imported module) for each relative import at the top level of the file."""
    module, package = _module_of(path)
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


# --- no module's names set from outside it ------------------------------------------------------
# A module-level name assigned by another module (`registry.Tensor = Tensor`, `setattr(module, ...)`)
# is a dependency the importing file does not show. Entries here are known ones, to be removed.
ALLOWED_FOREIGN_ASSIGNMENTS = set()


def _module_aliases(tree, module, package):
    """Names bound to gradlab modules in a file: `from . import x`, `from .a import b as c` (b a module),
    `import gradlab.x as y`, and `sys.modules[...]` lookups assigned to a name."""
    aliases = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[:len(package) - (node.level - 1)]
            for alias in node.names:
                if _is_module(".".join(base + ([node.module] if node.module else []) + [alias.name])):
                    aliases.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            aliases.update(a.asname or a.name for a in node.names if a.name.startswith("gradlab"))
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Subscript) and \
                ast.unparse(node.value.value) == "sys.modules":
            aliases.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return aliases


def _foreign_assignments(path):
    module, package = _module_of(path)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    aliases = _module_aliases(tree, module, package)
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
        for target in targets:           # (`x.y[k] = v` changes a value, it does not rebind a name)
            for t in target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]:
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id in aliases:
                    yield f"{module}: {t.value.id}.{t.attr} = ..."
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr" and \
                node.args and isinstance(node.args[0], ast.Name) and (
                    node.args[0].id in aliases or node.args[0].id == "module"):
            yield f"{module}: setattr({node.args[0].id}, ...)"


def test_no_module_sets_another_modules_names():
    found = {a for path in ROOT.rglob("*.py") for a in _foreign_assignments(path)}
    assert found <= ALLOWED_FOREIGN_ASSIGNMENTS, "module-level names set from another module:\n" + "\n".join(
        sorted(found - ALLOWED_FOREIGN_ASSIGNMENTS))
    assert not ALLOWED_FOREIGN_ASSIGNMENTS - found, f"fixed, remove from the list: {ALLOWED_FOREIGN_ASSIGNMENTS - found}"


def test_the_assignment_check_sees_one(tmp_path, monkeypatch):
    fake = tmp_path / "gradlab"
    (fake / "ops").mkdir(parents=True)
    (fake / "ops" / "dual.py").write_text("OPS = {}\n")
    (fake / "ops" / "registry.py").write_text("from . import dual\ndual.OPS = {}\nsetattr(dual, 'x', 1)\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", fake)
    assert list(_foreign_assignments(fake / "ops" / "registry.py")) == [
        "ops.registry: dual.OPS = ...", "ops.registry: setattr(dual, ...)"]


# --- imports inside functions ---------------------------------------------------------------------
# Only for optional dependencies, imported when a feature needs them.
OPTIONAL = {"graphviz", "ipywidgets", "PIL", "IPython"}

# Imports inside functions that remain only to get around an import cycle: each entry is
# "module: function imports target", and the list only shrinks. Most point up the layers (a lower
# module calling a higher one at run time) and go away when the code they call moves down.
ALLOWED_FUNCTION_IMPORTS = set()

# Imports inside functions that keep `import gradlab` fast (issue #18's import target): the drawing package
# is loaded at the first HTML card or drawing, by gradlab/__init__.py's hooks on Tensor and Node. They point
# down from the top module, as its top-level imports do.
LAZY_IMPORTS = {": card imports .viz", ": _viz_card imports .viz",
                "ops._libm: c_math_library imports ctypes"}   # (only where libm has no usual name)       # (": " is gradlab/__init__.py)


def _function_level_imports(path):
    module, package = _module_of(path)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = ["." * node.level + (node.module or "")]
            else:
                continue
            for name in names:
                if name.split(".")[0] not in OPTIONAL:
                    yield f"{module}: {fn.name} imports {name}"


def test_function_level_imports_only_for_optional_dependencies():
    found = {i for path in ROOT.rglob("*.py") for i in _function_level_imports(path)}
    assert LAZY_IMPORTS <= found, f"lazy imports no longer there, remove from the list: {LAZY_IMPORTS - found}"
    found -= LAZY_IMPORTS
    assert found <= ALLOWED_FUNCTION_IMPORTS, "imports inside functions (import at the top of the file):\n" + \
        "\n".join(sorted(found - ALLOWED_FUNCTION_IMPORTS))
    assert not ALLOWED_FUNCTION_IMPORTS - found, \
        f"no longer there, remove from the list: {sorted(ALLOWED_FUNCTION_IMPORTS - found)}"


def test_the_function_import_check_sees_one(tmp_path, monkeypatch):
    """The check can fail: an import inside a function is reported, an optional dependency's is not."""
    fake = tmp_path / "gradlab"
    (fake / "ops").mkdir(parents=True)
    (fake / "ops" / "late.py").write_text("def f():\n    from ..creation import tensor\n\n"
                                          "def g():\n    import graphviz\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", fake)
    assert list(_function_level_imports(fake / "ops" / "late.py")) == ["ops.late: f imports ..creation"]
