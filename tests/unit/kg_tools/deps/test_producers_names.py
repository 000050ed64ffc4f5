"""Values that are not ids (names, slugs, keys) and the lists that provide them (kg_tools/deps/producers.py,
fifteenth session, "values that are not ids"). Small made-up specs, no names of real ones."""

from __future__ import annotations

from kg_tools.deps.producers import candidate_groups, prepare, tool_kind, tool_offers
from tests.support.made_up_ops import op


def _p(name: str, where: str = "path") -> dict:
    return {"name": name, "type": "string", "description": "", "required": True, "in": where}


def _items(title: str, *fields: str) -> dict:
    item = {"type": "object", "title": title, "properties": {f: {"type": "string"} for f in fields}}
    return {"type": "array", "items": item}


def _offers(tools: list, consumer: str, parameter: str) -> dict[str, set[tuple[str, str]]]:
    """producer -> the (resource, field) of its offers matched for one parameter of `consumer`."""
    _, groups = candidate_groups(tools)
    out: dict[str, set[tuple[str, str]]] = {}
    for g in groups:
        for c in g:
            if c.consumer.name == consumer and c.want.parameter == parameter and c.offer is not None:
                out.setdefault(c.producer.name, set()).add((c.offer.resource, c.offer.field))
    return out


def test_a_list_whose_items_are_titled_otherwise_offers_the_listed_collections_name_and_slug():
    """`GET /jobs` returning `JobStub[]` (`[].name`) and `GET /accounts` returning `Membership[]` (`[].slug`): the
    items are the jobs and the accounts the paths list, so `jobName` and `account_slug` find them by that field; a
    nested summary's `job_id` (an offer of the job, not primary) does not stop it."""
    jobs = _items("JobStub", "id", "name")
    jobs["items"]["properties"]["summary"] = {"type": "object", "properties": {"job_id": {"type": "string"}}}
    tools = [
        op("list_jobs", "GET", "/jobs", [], output_schema=jobs),
        op("get_job", "GET", "/job/{jobName}", [_p("jobName")]),
        op("list_accounts", "GET", "/accounts", [], output_schema=_items("Membership", "id", "slug")),
        op("list_sites", "GET", "/{account_slug}/sites", [_p("account_slug")]),
    ]
    assert ("job", "name") in _offers(tools, "get_job", "jobName").get("list_jobs", set())
    assert ("account", "slug") in _offers(tools, "list_sites", "account_slug").get("list_accounts", set())


def test_a_scoped_list_or_one_that_already_names_its_collection_offers_nothing_more():
    """`GET /clients/{id}/roles` lists one client's roles (its items, `RoleView[]`, are not read as the catalog's
    roles); `GET /teams` whose items are already the teams' (`Team[]`) gets no second offer of them."""
    tools = [
        op("list_client_roles", "GET", "/clients/{id}/roles", [_p("id")], output_schema=_items("RoleView", "name")),
        op("get_role", "GET", "/roles/{role_name}", [_p("role_name")]),
        op("list_teams", "GET", "/teams", [], output_schema=_items("Team", "id", "name")),
        op("get_team", "GET", "/teams/{team_name}", [_p("team_name")]),
    ]
    assert ("role", "name") not in _offers(tools, "get_role", "role_name").get("list_client_roles", set())
    teams = prepare(tools)["list_teams"]
    teams.kind = tool_kind(teams)
    team_offers = [(o.resource, o.field, o.path) for o in tool_offers(teams)]
    assert len(team_offers) == len(set(team_offers))


def test_a_list_beside_another_list_names_neither_after_the_collection():
    """`GET /articles` returning `{data: Post[], included: Person[]}` (JSON:API): which array holds the articles is
    not known by shape, so the people in `included` are not offered as articles (sixteenth session's review)."""
    schema = {
        "type": "object",
        "properties": {"data": _items("Post", "id", "type"), "included": _items("Person", "id", "name")},
    }
    tools = [
        op("list_articles", "GET", "/articles", [], output_schema=schema),
        op("get_article", "GET", "/articles/{article_name}", [_p("article_name")]),
    ]
    articles = prepare(tools)["list_articles"]
    articles.kind = tool_kind(articles)
    assert not [o for o in tool_offers(articles) if o.resource == "article"]
    assert ("article", "name") not in _offers(tools, "get_article", "article_name").get("list_articles", set())
