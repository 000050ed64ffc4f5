"""Of a parameter's kept producers, one that names only the head of a compound wanted resource goes when another
kept producer names it all (kg_tools/deps/scoring.py `without_head_only`; twenty-third session, "a compound want
and its head's list"). Made-up tools."""

from __future__ import annotations

from kg_tools.deps.producers import Tool, Want
from kg_tools.deps.scoring import Candidate, without_head_only

INVOICES = Tool("getInvoices", "", [], http={"method": "GET", "path": "/api/v1/invoices"})
RECURRING = Tool("getRecurringInvoices", "", [], http={"method": "GET", "path": "/api/v1/recurring_invoices"})


def _tool(name: str, path: str = "", method: str = "PUT") -> Tool:
    return Tool(name, "", [], http={"method": method, "path": path} if path else None)


def _kept(consumer: Tool, parameter: str, *producers: Tool) -> list[str]:
    want = Want(parameter, ["invoice"], "id", True)
    kept = [Candidate(consumer, want, p, None) for p in producers]
    return [c.producer.name for c in without_head_only(kept)]


def test_the_heads_list_goes_beside_the_compounds():
    consumer = _tool("updateRecurringInvoice", "/api/v1/recurring_invoices/{id}")
    assert _kept(consumer, "id", INVOICES, RECURRING) == ["getRecurringInvoices"]


def test_the_compound_from_the_parameters_name_or_a_literal():
    consumer = _tool("get_recurring_invoice_history")
    assert _kept(consumer, "recurring_invoice_id", RECURRING, INVOICES) == ["getRecurringInvoices"]
    bulk = _tool("bulkRecurringInvoices", "/api/v1/recurring_invoices/bulk", "POST")
    assert _kept(bulk, "ids", INVOICES, RECURRING) == ["getRecurringInvoices"]


def test_a_bare_want_or_no_full_name_keeps_all():
    plain = _tool("updateInvoice", "/api/v1/invoices/{id}")
    assert _kept(plain, "id", INVOICES, RECURRING) == ["getInvoices", "getRecurringInvoices"]
    consumer = _tool("updateRecurringInvoice", "/api/v1/recurring_invoices/{id}")
    assert _kept(consumer, "id", INVOICES) == ["getInvoices"]
    assert _kept(consumer, "id", INVOICES, _tool("listInvoiceDrafts")) == ["getInvoices", "listInvoiceDrafts"]
