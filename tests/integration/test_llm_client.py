"""The LLM wrapper against an OpenAI-compatible server started by the test."""

import json

import pytest

from kg_tools.errors import LLMError
from kg_tools.llm import LLMClient, enum_model, llm_from_settings

pytestmark = pytest.mark.integration


def test_structured_output_with_enum_is_validated(llm_settings, fake_llm):
    Choice = enum_model("Choice", "tools", ["a", "b"])
    fake_llm.script(lambda req: json.dumps({"tools": ["b", "a"]}))
    client = LLMClient(llm_settings)
    assert client.structured("pick", Choice).tools == ["b", "a"]
    sent = fake_llm.requests[0]
    assert sent["model"] == "test-model"
    assert sent["response_format"]["json_schema"]["schema"]["properties"]["tools"]["items"]["enum"] == ["a", "b"]


@pytest.mark.parametrize(
    "answer,match",
    [
        ("not json at all", "did not match"),
        (json.dumps({"tools": ["c"]}), "did not match"),
        ({"refusal": "I can't help with that"}, "refused"),
        ({"status": 500}, "failed"),
        ({"delay": 3.0, "content": "{}"}, "failed"),
    ],
)
def test_bad_answers_raise_llm_error(llm_settings, fake_llm, answer, match):
    Choice = enum_model("Choice", "tools", ["a", "b"])
    fake_llm.script(lambda req: answer)
    with pytest.raises(LLMError, match=match):
        LLMClient(llm_settings).structured("pick", Choice)


def test_no_base_url_means_no_client(settings):
    assert llm_from_settings(settings.model_copy(update={"openai_base_url": None})) is None
