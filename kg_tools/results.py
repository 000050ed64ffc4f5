"""The base of the result models the stores return (kg_tools.catalog_store, kg_tools.deps.store, ...): pydantic
models the REST API serves as they are and the CLI prints with `model_dump()`."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel


class Result(BaseModel):
    """A store's result. `result["key"]` still reads a field, for callers written against the former dicts."""

    def __getitem__(self, key: str) -> Any:
        if key not in type(self).model_fields and key not in (self.model_extra or {}):
            raise KeyError(key)
        return getattr(self, key)
