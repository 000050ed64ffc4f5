"""The supplied-golden set's skip rule (benchmarks/eval/supplied_set.py), no database."""

from benchmarks.eval.supplied_set import golden_set
from tests.integration.test_eval import CORE, REGULAR


def test_skip_supplied_golden_rule():
    tools = {t["name"]: t for t in CORE + REGULAR}
    assert golden_set(tools, "convert_currency", set()) == {"convert_currency", "get_wifi_status", "get_current_date"}
    assert golden_set(tools, "convert_currency", {"date"}) == {"convert_currency", "get_wifi_status"}
