"""The test data the repository carries (tests/data) is what tools/make_test_data.py makes.

The suite reads only tests/data, so it runs on a bare clone. Where the project's references sit
beside the clone (as on the team's machines), these tests check that the carried files
are current: the seed tutorials' code cells, and torch's printed text for every reference case.
"""
import importlib.util
import json
import pathlib

import pytest

TOOL = pathlib.Path(__file__).resolve().parents[2] / "tools" / "make_test_data.py"
spec = importlib.util.spec_from_file_location("make_test_data", TOOL)
make = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make)


def _carried(path):
    return json.loads(path.read_text(encoding="utf-8"))


def test_carried_files_are_complete():
    cases = _carried(make.REPR_CASES)
    assert cases["torch_version"].startswith("2.13.")
    assert len(cases["cases"]) == 133 and all({"expr", "dtype", "printed"} <= set(c) for c in cases["cases"])
    seeds = _carried(make.SEED_TUTORIALS)
    assert len(seeds) == 5 and all(len(s["cells"]) >= 8 for s in seeds.values())


def test_extracting_cells_of_a_notebook_dump():
    text = "In [1]:\nx = 1\n\nprint(x)\n\nTrue\n\nprose after the output\n\nIn [2]:\ny = x + 1\n"
    assert make.extract_cells(text) == ["x = 1\n\nprint(x)", "y = x + 1\n"]


def test_extracting_cells_of_a_web_page():
    text = "Intro\n```\nwith a:\nb()\n```\nOut:\n```\n1\n```\n"
    assert make.extract_cells(text) == ["with a:\n    b()"]


@pytest.mark.skipif(not make.SEEDS.is_dir(), reason="the seed tutorials are not beside this clone")
def test_seed_cells_are_current():
    assert make.seed_tutorials() == _carried(make.SEED_TUTORIALS)


@pytest.mark.torch
@pytest.mark.skipif(not make.REFERENCE.exists(), reason="the project's references are not beside this clone")
def test_repr_cases_are_current():
    pytest.importorskip("torch")
    assert make.repr_cases() == _carried(make.REPR_CASES)
