"""The Graph RAG-Tool Fusion paper's published numbers (arXiv 2502.07223, Table 3), as quoted in the
dataset README: text-embedding-ada-002 + GPT-4o reranker. Only mAP@10 and Recall@10 are recorded
there; @20/@30 and nDCG were not available to us offline and are left blank (None)."""

from __future__ import annotations

PAPER = {
    "toollinkos": {
        "lexical": {"mAP@10": 0.185, "Recall@10": 0.253},
        "vector": {"mAP@10": 0.210, "Recall@10": 0.257},
        "hybrid": {"mAP@10": 0.202, "Recall@10": 0.265},
        "grtf": {"mAP@10": 0.856, "Recall@10": 0.943},
        "grtf_rerank": {"mAP@10": 0.927, "Recall@10": 0.958},
    },
    # The paper reports ToolSandbox only as "+22.1% mAP@10 over naive RAG"; no absolute values.
    "toolsandbox": {},
}

PAPER_LABELS = {
    "lexical": "BM25",
    "vector": "naive RAG",
    "hybrid": "hybrid (alpha 0.8)",
    "grtf": "GRTF k=3",
    "grtf_rerank": "GRTF k=3 + rerank",
}


def paper_numbers(dataset: str) -> dict[str, dict[str, float]]:
    return PAPER.get(dataset, {})
