"""Path parameters shared by the routers, bounded and described once."""

from __future__ import annotations

import unicodedata
from typing import Annotated

from fastapi import Path
from pydantic import AfterValidator

from kg_tools.tool_spec import MAX_CATALOG_LENGTH, MAX_NAME_LENGTH, TOOL_NAME_PATTERN

ToolName = Annotated[
    str,
    Path(
        min_length=1,
        max_length=MAX_NAME_LENGTH,
        pattern=TOOL_NAME_PATTERN,
        description="Tool name as in the catalog (compared in Unicode NFC): any characters "
        "but control and invisible ones (zero-width, bidi controls), no "
        "whitespace at either end ('/' is sent as %2F).",
    ),
    AfterValidator(lambda name: unicodedata.normalize("NFC", name)),
]
RunId = Annotated[
    str, Path(min_length=1, max_length=MAX_CATALOG_LENGTH, description="A run id as listed by the runs endpoint.")
]
