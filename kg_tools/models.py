"""neomodel classes mirroring the graph, for single-node CRUD (bulk paths use cypher/ files).

Labels: every tool is :Tool plus :Core or :Regular. The four dependency relationship types carry
`reason` and `parameter_name`; MERGED_INTO points a merged tool at its canonical tool.
"""
from __future__ import annotations

import json

from neomodel import (
    ArrayProperty,
    FloatProperty,
    IntegerProperty,
    RelationshipTo,
    StringProperty,
    StructuredNode,
    StructuredRel,
    db,
)


class DependsOn(StructuredRel):
    reason = StringProperty(default="")
    parameter_name = StringProperty()
    ord = IntegerProperty()
    original_type = StringProperty()


class MergedInto(StructuredRel):
    run = StringProperty()
    score = FloatProperty()
    method = StringProperty()
    reason = StringProperty()


class Tool(StructuredNode):
    __label__ = "Tool"
    name = StringProperty(unique_index=True, required=True)
    description = StringProperty(default="")
    func_type = StringProperty(choices={"core": "core", "regular": "regular"})
    name_words = StringProperty()
    param_text = StringProperty()
    spec = StringProperty()  # the original catalog JSON, returned unchanged by the API
    spec_hash = StringProperty()
    catalog = StringProperty()
    embedding = ArrayProperty(FloatProperty())
    embedding_model = StringProperty()

    tool_directly_depends_on = RelationshipTo("Tool", "TOOL_DIRECTLY_DEPENDS_ON", model=DependsOn)
    tool_indirectly_depends_on = RelationshipTo("Tool", "TOOL_INDIRECTLY_DEPENDS_ON", model=DependsOn)
    parameter_directly_depends_on = RelationshipTo("Tool", "PARAMETER_DIRECTLY_DEPENDS_ON", model=DependsOn)
    parameter_indirectly_depends_on = RelationshipTo("Tool", "PARAMETER_INDIRECTLY_DEPENDS_ON", model=DependsOn)
    merged_into = RelationshipTo("Tool", "MERGED_INTO", model=MergedInto)

    @property
    def kind(self) -> str:
        return "core" if self.func_type == "core" else "regular"

    def spec_json(self) -> dict:
        return json.loads(self.spec) if self.spec else {"name": self.name, "description": self.description}


class Core(Tool):
    __label__ = "Core"


class Regular(Tool):
    __label__ = "Regular"


def bind(driver) -> None:
    """Point neomodel at an existing driver (one connection pool for the whole process)."""
    db.set_connection(driver=driver)
