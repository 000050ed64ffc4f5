"""A list whose items' schema title composes the collection its path names with its parent's name
(`GET /…/invoice/{invoiceID}/comment-thread` -> `CommentThreadInvoiceListing[]`, read as an invoice) offers its items'
ids as the path's collection's too, so a consumer at that collection's own path (`…/comment-thread/{itemId}`) finds its
own list, not another parent's (kg_tools/deps/producers.py `_named_by_composed_title`; docs/dependencies.md,
twenty-sixth session: the list at the consumer's own path). Small made-up operations."""

from __future__ import annotations

from kg_tools.deps.infer import infer_catalog
from kg_tools.deps.offline import Examples
from kg_tools.deps.producers import prepare, tool_kind, tool_offers
from tests.support.made_up_ops import op

ACCOUNT = {"name": "accountID", "type": "integer", "required": True, "in": "path"}
ITEM = {"name": "itemId", "type": "integer", "required": True, "in": "path"}
# a reply's threads are titled `CommentThreadReplyListing`, read as comment threads (a title ends at `Reply`): the
# list every other parent's thread was offered from before
PARENTS = ("invoice", "shipment", "reply")


def _listing(title: str) -> dict:
    return {"type": "array", "items": {"title": title, "type": "object", "properties": {"id": {"type": "integer"}}}}


def _tools() -> list:
    """Per parent: its list, its comment threads' list (titled `CommentThread<Parent>Listing`) and a reader of one."""
    tools = []
    for parent in PARENTS:
        owner = {"name": f"{parent}ID", "type": "integer", "required": True, "in": "path"}
        base = f"/account/{{accountID}}/{parent}"
        title = f"{parent.title()}Listing"
        tools.append(op(f"list_{parent}s", "GET", base, [ACCOUNT], output_schema=_listing(title)))
        threads = _listing(f"CommentThread{parent.title()}Listing")
        where = f"{base}/{{{parent}ID}}/comment-thread"
        tools.append(op(f"list_{parent}_threads", "GET", where, [ACCOUNT, owner], output_schema=threads))
        tools.append(op(f"get_{parent}_thread", "GET", where + "/{itemId}", [ACCOUNT, owner, ITEM]))
    return tools


def test_a_composed_title_offers_the_paths_collection():
    listing = prepare(_tools())["list_invoice_threads"]
    listing.kind = tool_kind(listing)
    resources = {o.resource for o in tool_offers(listing) if o.path == "[].id"}
    assert "thread" in resources and "invoice" in resources


def test_a_title_that_is_the_collection_adds_nothing():
    listing = prepare(_tools())["list_invoices"]
    listing.kind = tool_kind(listing)
    assert {o.resource for o in tool_offers(listing) if o.path == "[].id"} == {"invoice"}


def test_a_consumer_takes_its_own_parents_list():
    edges = infer_catalog(_tools(), None, Examples([])).edges
    for parent in PARENTS:
        got = {e.target for e in edges if e.source == f"get_{parent}_thread" and e.parameter_name == "itemId"}
        assert got == {f"list_{parent}_threads"}, parent
