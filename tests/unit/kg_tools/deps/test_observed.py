"""Unit tests of the gateway's value matching for observed dependencies (kg_tools/deps/observed.py):
which values count, that only keyed hashes are kept, and the bounds."""

from __future__ import annotations

import json

from mcp_types import CallToolResult, TextContent

from kg_tools.deps import observed
from kg_tools.deps.observed import CallObserver, Flow, leaves, result_values, significant


def result(structured=None, text: str | None = None) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=text if text is not None else json.dumps(structured or {}))],
        structured_content=structured,
    )


def test_trivial_values_are_ignored():
    assert significant(True) is None and significant(False) is None and significant(None) is None
    assert significant("ok") is None and significant("  hi  ") is None  # short strings
    assert significant(42) is None and significant(-999) is None and significant("42") is None  # small integers
    assert significant(3.14) is None  # floats are measures, not identifiers
    assert significant("x" * (observed.MAX_STRING + 1)) is None  # file contents are not hashed
    assert significant("TCK-7f3a9c") == "TCK-7f3a9c"
    assert significant(" /home/me/project/README.md ") == "/home/me/project/README.md"
    assert significant(42017) == "42017" == significant("42017")  # a number and its string match


def test_leaves_walk_nested_results_and_stop_at_the_limit():
    doc = {"a": [{"id": "user-8842af", "n": 1}, {"deep": {"email": "ana@example.com"}}], "ok": True, "big": 123456}
    assert sorted(leaves(doc)) == ["123456", "ana@example.com", "user-8842af"]
    many = {"items": [f"item-{i:06d}" for i in range(50)]}
    assert len(list(leaves(many, limit=10))) == 10


def test_result_values_read_structured_content_and_json_text():
    assert result_values(result({"id": "abc-123456"})) == [{"id": "abc-123456"}, {"id": "abc-123456"}]
    plain = result(None, text="Created file /tmp/notes.txt")  # prose is not parsed
    assert result_values(plain) == []
    listed = result(None, text='[{"name": "Ada Lovelace"}]')
    assert result_values(listed) == [[{"name": "Ada Lovelace"}]]


def test_a_value_from_an_earlier_result_is_a_flow_of_that_session_only():
    obs = CallObserver()
    assert obs.observe("s1", "crm__find_person", {"query": "Ada"}, result({"person": {"handle": "u-93f2a1"}})) == []
    flows = obs.observe("s1", "crm__send_gift", {"recipient": "u-93f2a1", "note": "thanks!"}, result({}))
    assert flows == [Flow("crm__find_person", "crm__send_gift", "recipient")]
    # the same value in another session is not a flow
    assert obs.observe("s2", "crm__send_gift", {"recipient": "u-93f2a1"}, result({})) == []
    # nested argument values count under their top-level parameter; a tool is not its own provider
    flows = obs.observe("s1", "crm__send_gift", {"batch": [{"to": "u-93f2a1"}]}, result({"echo": "u-93f2a1"}))
    assert flows == [Flow("crm__find_person", "crm__send_gift", "batch")]
    assert obs.observe("s1", "crm__send_gift", {"batch": ["u-93f2a1"]}, result({})) == [
        Flow("crm__find_person", "crm__send_gift", "batch")
    ]
    # trivial values never make a flow, even when equal
    obs.observe("s3", "a__list", {}, result({"page": 2, "done": True, "lang": "en"}))
    assert obs.observe("s3", "a__get", {"page": 2, "done": True, "lang": "en"}, result({})) == []


def test_only_keyed_hashes_are_kept():
    obs = CallObserver(key=b"k" * 32)
    obs.observe("s1", "a__create", {}, result({"id": "secret-value-123"}))
    memory = obs._sessions["s1"]
    assert all(isinstance(h, bytes) and len(h) == 16 for h in memory)
    assert b"secret-value-123" not in b"".join(memory)
    assert "secret-value-123" not in repr(obs.__dict__)
    # another process (another key) hashes the same value differently
    assert CallObserver().digest("secret-value-123") != obs.digest("secret-value-123")


def test_memory_is_bounded_per_session_and_in_sessions():
    obs = CallObserver(max_sessions=3, max_values=5)
    obs.observe("s1", "a__list", {}, result({"ids": [f"id-{i:06d}" for i in range(20)]}))
    assert obs.size() == (1, 5)
    # the oldest values went first: the last five remain
    assert obs.observe("s1", "a__get", {"id": "id-000000"}, result({})) == []
    assert obs.observe("s1", "a__get", {"id": "id-000019"}, result({})) == [Flow("a__list", "a__get", "id")]
    for s in ("s2", "s3", "s4"):
        obs.observe(s, "a__list", {}, result({"id": "value-" + s}))
    assert obs.size()[0] == 3 and "s1" not in obs._sessions  # least recently used session went
    big = {"ids": [f"id-{i:06d}" for i in range(observed.MAX_VALUES_PER_CALL * 3)]}
    assert len([v for part in result_values(result(big)) for v in leaves(part)][: observed.MAX_VALUES_PER_CALL]) == (
        observed.MAX_VALUES_PER_CALL
    )


def test_reason_template_is_recognised():
    flow = Flow("crm__find_person", "crm__send_gift", "recipient")
    text = observed.reason(4, 3, flow)
    assert text == "seen 4 times in 3 sessions: recipient of crm__send_gift took a value from crm__find_person's result"
    assert observed.is_observed_reason(text) and not observed.is_observed_reason("needs an id from a listing")
    assert observed.confidence(3) == 0.875
    assert observed.run_id(flow) == observed.run_id(Flow("crm__find_person", "crm__send_gift", "recipient"))
