"""Path parameters shared by the routers, bounded and described once."""
from __future__ import annotations

from typing import Annotated

from fastapi import Path

from kg_tools.catalog import MAX_CATALOG_LENGTH, MAX_NAME_LENGTH, TOOL_NAME_PATTERN

ToolName = Annotated[str, Path(min_length=1, max_length=MAX_NAME_LENGTH, pattern=TOOL_NAME_PATTERN,
                               description="Tool name exactly as in the catalog: any characters but control "
                                           "characters, no whitespace at either end ('/' is sent as %2F).")]
RunId = Annotated[str, Path(min_length=1, max_length=MAX_CATALOG_LENGTH, description="A run id as listed by the runs endpoint.")]
