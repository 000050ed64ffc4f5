"""What a gateway that could not start tells its clients: no credentials of a URL."""

from kg_tools.gateway.server import redacted


def test_credentials_in_urls_are_left_out_of_the_start_up_error():
    text = "Neo4j is not reachable at bolt+s://neo4j:s3cret@db.example:7687: start it; see https://a:b@x.test/y"
    assert (
        redacted(text) == "Neo4j is not reachable at bolt+s://***@db.example:7687: start it; see https://***@x.test/y"
    )
    assert (
        redacted("cannot listen on 127.0.0.1:8765 (user@example.com)")
        == "cannot listen on 127.0.0.1:8765 (user@example.com)"
    )
