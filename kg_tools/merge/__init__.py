"""ToolScope-style merging of redundant tools inside the graph (non-destructive, undoable).

candidates (vector index) -> classify -> components -> auto-correct -> canonical -> MERGED_INTO.
"""

from kg_tools.merge.plan import DEFAULT_THETA, DEFAULT_TOP_K, MergePlan, build_plan  # noqa: F401
from kg_tools.merge.store import apply_plan, current_phi, list_runs, undo_run  # noqa: F401
