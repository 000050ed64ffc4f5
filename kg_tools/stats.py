"""Graph statistics: node counts by label, relationship counts by type, indexes with their state."""
from neo4j import Driver

from kg_tools.cypher import query
from kg_tools.schema import list_indexes


def graph_stats(driver: Driver) -> dict:
    labels = {r["label"]: r["count"] for r in driver.execute_query(query("label_counts")).records}
    rels = {r["type"]: r["count"] for r in driver.execute_query(query("relationship_counts")).records}
    indexes = [
        {"name": i["name"], "type": i["type"], "state": i["state"],
         "labels": i["labelsOrTypes"], "properties": i["properties"], "population_percent": i["populationPercent"]}
        for i in list_indexes(driver)
    ]
    return {"labels": labels, "relationships": rels, "indexes": indexes}
