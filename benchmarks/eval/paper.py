"""The Graph RAG-Tool Fusion paper's published numbers (arXiv 2502.07223: text-embedding-ada-002, GPT-4o
reranker), beside ours in `kg-tools eval toollinkos|toolsandbox`. Where each number comes from:

- ToolLinkOS, mAP@10 / Recall@10 of every method: the dataset README (/work/shared/datasets/toollinkos),
  which quotes the paper's ToolLinkOS table.
- ToolSandbox, mAP@10 of naive RAG 0.440, GRTF 0.521 and GRTF + rerank 0.661: issue 29 quotes them from the
  paper's Tables 2-3. The paper's abstract (stored copies of arxiv.org/html/2502.07223v1) corroborates
  them: "absolute improvements of 71.7% and 22.1% over naive RAG on ToolLinkOS and ToolSandbox (mAP@10)",
  and 0.661 - 0.440 = 0.221 as 0.927 - 0.210 = 0.717 on ToolLinkOS.
- Not found, so left out (a blank cell, never a guess): @20 / @30 and nDCG of either dataset, Recall@10 on
  ToolSandbox, and ToolSandbox's BM25 / hybrid rows. Every stored copy of the paper we could search
  (2026-11-28) held its abstract only, not its tables.
"""

from __future__ import annotations

PAPER = {
    "toollinkos": {
        "lexical": {"mAP@10": 0.185, "Recall@10": 0.253},
        "vector": {"mAP@10": 0.210, "Recall@10": 0.257},
        "hybrid": {"mAP@10": 0.202, "Recall@10": 0.265},
        "grtf_paper": {"mAP@10": 0.856, "Recall@10": 0.943},
        "grtf_paper_rerank": {"mAP@10": 0.927, "Recall@10": 0.958},
    },
    "toolsandbox": {
        "vector": {"mAP@10": 0.440},
        "grtf_paper": {"mAP@10": 0.521},
        "grtf_paper_rerank": {"mAP@10": 0.661},
    },
}

PAPER_LABELS = {
    "lexical": "BM25",
    "vector": "naive RAG",
    "hybrid": "hybrid (alpha 0.8)",
    "grtf_paper": "GRTF k=3",
    "grtf_paper_rerank": "GRTF k=3 + rerank",
}


def paper_numbers(dataset: str) -> dict[str, dict[str, float]]:
    return PAPER.get(dataset, {})
