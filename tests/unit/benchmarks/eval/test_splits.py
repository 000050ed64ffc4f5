"""eval --split / --queries and our dev sets (golden sets built by rule from the catalog)."""

import json

import pytest

from benchmarks.eval import datasets, devset
from benchmarks.eval.datasets import SPLIT_DIR, EvalDataset, EvalInstance
from kg_tools.errors import CatalogError
from kg_tools.settings import Settings


def _dataset(name="toollinkos"):
    tools = [{"name": n} for n in ("advise_on_weather", "zz_not_in_split", "helper")]
    instances = [
        EvalInstance("q1", frozenset({"advise_on_weather", "helper"}), "advise_on_weather"),
        EvalInstance("q2", frozenset({"zz_not_in_split"}), "zz_not_in_split"),
    ]
    return EvalDataset(name, tools, instances, [])


def test_split_keeps_the_queries_of_each_half_by_main_tool():
    split = json.loads((SPLIT_DIR / "toollinkos_split.json").read_text())
    assert not set(split["dev"]) & set(split["test"])
    dataset = _dataset()
    assert [i.query for i in dataset.split("dev").instances] == ["q1"]  # advise_on_weather is a dev tool
    assert dataset.split("test").instances == []
    assert dataset.split("all") is dataset
    with pytest.raises(CatalogError, match="no dev/test split"):
        _dataset("toolsandbox").split("dev")


def test_queries_file_replaces_the_queries_and_checks_gold_names(tmp_path):
    path = tmp_path / "mine.json"
    path.write_text(
        json.dumps([{"user_query": "help", "main_golden_function_name": "helper", "golden_function_names": ["helper"]}])
    )
    dataset = _dataset().with_queries(path)
    assert [(i.query, i.main) for i in dataset.instances] == [("help", "helper")]
    path.write_text(json.dumps([{"user_query": "help", "golden_function_names": ["ghost"]}]))
    with pytest.raises(CatalogError, match="golden tools not in the catalog"):
        _dataset().with_queries(path)
    path.write_text("{not json")
    with pytest.raises(CatalogError, match="cannot read"):
        _dataset().with_queries(path)


@pytest.mark.parametrize("catalog", devset.CATALOGS)
def test_dev_set_golden_lists_follow_the_rule(catalog):
    settings = Settings()
    directory = settings.datasets_dir / catalog
    if not directory.is_dir():
        pytest.skip(f"benchmark datasets not found at {settings.datasets_dir}")
    rows = json.loads(devset.path(catalog).read_text())
    tools = getattr(datasets, catalog)(directory).tools
    assert rows == devset.with_golden(rows, tools, catalog)  # rebuilt by rule: nothing edited by hand
    assert len({r["user_query"] for r in rows}) == len(rows)
    if catalog == "toollinkos":  # tuning data: main tools of the dev half only
        dev = set(json.loads((SPLIT_DIR / "toollinkos_split.json").read_text())["dev"])
        assert {r["main_golden_function_name"] for r in rows} <= dev
    supplied = [r for r in rows if r["supplies"]]
    assert supplied and any(
        len(r["golden_function_names"])
        < len(devset.with_golden([{**r, "supplies": []}], tools, catalog)[0]["golden_function_names"])
        for r in supplied
    )
