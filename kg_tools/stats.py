"""Graph statistics: node counts by label, relationship counts by type, indexes with their state."""

from kg_tools.cypher import query
from kg_tools.graph import Graph
from kg_tools.schema import list_indexes


def graph_stats(graph: Graph) -> dict:
    labels = {r["label"]: r["count"] for r in graph.read(query("label_counts"))}
    rels = {r["type"]: r["count"] for r in graph.read(query("relationship_counts"))}
    indexes = [
        {
            "name": i["name"],
            "type": i["type"],
            "state": i["state"],
            "labels": i["labelsOrTypes"],
            "properties": i["properties"],
            "population_percent": i["populationPercent"],
        }
        for i in list_indexes(graph)
    ]
    return {"labels": labels, "relationships": rels, "indexes": indexes}
