"""A resource a description names only in a clause of when to call the tool is no resource it returns."""

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import candidate_groups
from kg_tools.deps.resources import _before_when_clause, described_resources

APOLLO_LISTS = (
    "Retrieve all lists created in your Apollo account. Use this endpoint to discover available lists before creating "
    "contacts or performing other list-based operations. Requires a master API key."
)


def test_a_before_or_when_clause_names_nothing_returned():
    """Apollo's `list_lists` returns lists, not contacts; Xero's tax rates are no invoices."""
    assert "contact" not in described_resources(APOLLO_LISTS)
    xero = "Lists all tax rates in Xero. Use this tool to get the tax rates to be used when creating invoices in Xero"
    assert "rate" in described_resources(xero)
    assert "invoice" not in described_resources(xero)


def test_only_a_clause_with_a_verb_cuts():
    """ "before / after / when / while <verb>ing" cuts; "after the cursor", "when given" do not."""
    assert _before_when_clause(["tasks", "while", "paging"]) == ["tasks"]
    assert _before_when_clause(["before", "creating", "contacts"]) == []
    assert _before_when_clause(["issues", "after", "the", "cursor"]) == ["issues", "after", "the", "cursor"]
    assert _before_when_clause(["contacts", "when", "given"]) == ["contacts", "when", "given"]
    assert _before_when_clause(["logs", "after"]) == ["logs", "after"]


def _tool(name: str, description: str, params: list[dict]) -> ToolInfo:
    return ToolInfo.from_raw({"name": name, "description": description, "parameters": params})


def test_a_contact_id_is_not_offered_by_the_lists_named_before_creating_contacts():
    contact_id = {"name": "contact_id", "type": "string", "description": "The contact's ID", "required": True}
    tools = [
        _tool("list_lists", APOLLO_LISTS, []),
        _tool("search_contacts", "Search for contacts in your Apollo account.", []),
        _tool("get_contact", "Get one contact.", [contact_id]),
    ]
    _, groups = candidate_groups(tools)
    found = {c.producer.name for g in groups for c in g if g[0].consumer.name == "get_contact"}
    assert found == {"search_contacts"}
