"""A header parameter lives in no collection the consumer's path addresses (kg_tools/deps/producers.py
`collection_path`; twenty-seventh session, "leads from the fresh specs just spent"). Made-up operations."""

from __future__ import annotations

from kg_tools.deps.producers import candidate_groups
from tests.support.made_up_ops import op

SECRETS = {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}}
VAULT = {"type": "object", "properties": {"id": {"type": "string"}, "secrets": SECRETS}}  # one vault, with a list
PAGE = {"type": "object", "properties": {"items": {"type": "array", "items": {**VAULT, "title": "vault"}}}}


def _p(name: str, where: str, type_: str = "string", description: str = "") -> dict:
    return {"name": name, "type": type_, "description": description, "required": where == "path", "in": where}


def _path_candidates(headers: str) -> set[tuple[str, str, str]]:
    """(consumer, parameter, producer) of the candidates found by the consumer's path, every operation taking an
    account number sent `headers` (as a header, or a query parameter)."""
    account = _p("X-Account-Number", headers, "integer", "Users with several accounts must give the account number.")
    tools = [
        op("list_vaults", "GET", "/vaults", [account], output_schema=PAGE),
        op("get_vault", "GET", "/vaults/{vault_id}", [_p("vault_id", "path"), account], output_schema=VAULT),
        op("delete_vault", "DELETE", "/vaults/{vault_id}", [_p("vault_id", "path"), account]),
        op("list_secrets", "GET", "/vaults/{vault_id}/secrets", [_p("vault_id", "path"), account]),
    ]
    _, groups = candidate_groups(tools)
    return {
        (c.consumer.name, c.want.parameter, c.producer.name)
        for g in groups
        for c in g
        if c.path_list or c.path_scoped or c.path_create
    }


def test_a_header_is_no_member_of_the_collection_the_path_addresses():
    """`X-Account-Number` goes with every call: the GET at the consumer's own path (`get_vault` for
    `DELETE /vaults/{vault_id}`) is no producer of it, while `{vault_id}` still comes from the list of `/vaults`."""
    found = _path_candidates("header")
    assert not {t for t in found if t[1] == "X-Account-Number"}
    assert ("delete_vault", "vault_id", "list_vaults") in found
    assert ("list_secrets", "vault_id", "list_vaults") in found


def test_a_query_parameter_still_lives_in_the_collection_the_path_addresses():
    """The same parameter sent in the query keeps the older reading (`DELETE /me/tracks?ids=`: the path itself is
    the collection its value lives in)."""
    assert ("delete_vault", "X-Account-Number", "get_vault") in _path_candidates("query")
