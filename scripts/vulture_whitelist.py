"""Names vulture (scripts/test) reports as unused that are used: by a framework, by serialisation, by name."""
# ruff: noqa: B018, F821

# Framework callbacks and attributes other libraries read (Starlette convertors, click, torch, http.server, uvicorn, onnxruntime options, selenium)
_.obj  # unused attribute (kg_tools/cli.py:103)
_.graph_optimization_level  # unused attribute (kg_tools/embeddings.py:140)
_.inter_op_num_threads  # unused attribute (kg_tools/embeddings.py:141)
_.intra_op_num_threads  # unused attribute (kg_tools/embeddings.py:143)
_.binary_location  # unused attribute (tests/integration/test_browser_guide.py:164)
_.should_exit  # unused attribute (tests/integration/test_browser_guide.py:96)
_.should_exit  # unused attribute (tests/support/http_server.py:30)
_.convert  # unused method (api/http.py:40)
_.to_string  # unused method (api/http.py:43)
_.get_command  # unused method (kg_tools/cli.py:80)
_.forward  # unused method (kg_tools/embeddings.py:193)
_.log_message  # unused method (tests/support/fake_openai.py:23)
_.do_POST  # unused method (tests/support/fake_openai.py:26)

# Fields of pydantic models, neomodel nodes and dataclasses: read by serialisation, Cypher or the Python API
_.truncated  # unused attribute (kg_tools/gateway/service.py:194)
accepted_pairs  # unused variable (api/schemas.py:184)
clusters_detail  # unused variable (api/schemas.py:208)
operation_id  # unused variable (kg_tools/tool_spec.py:299)
response_status  # unused variable (kg_tools/tool_spec.py:304)
response_media_type  # unused variable (kg_tools/tool_spec.py:311): read from the http dict in kg_tools/deps/producers.py
exact_field  # unused variable (kg_tools/deps/producers.py:290)
truncated  # unused variable (kg_tools/gateway/results.py:35)
accepted_pairs  # unused variable (kg_tools/merge/store.py:44)
http_method  # unused variable (kg_tools/ogm.py:101)
http_path  # unused variable (kg_tools/ogm.py:102)
has_output_schema  # unused variable (kg_tools/ogm.py:105)
read_only_hint  # unused variable (kg_tools/ogm.py:106)
destructive_hint  # unused variable (kg_tools/ogm.py:107)
idempotent_hint  # unused variable (kg_tools/ogm.py:108)
open_world_hint  # unused variable (kg_tools/ogm.py:109)
closure_via  # unused variable (kg_tools/ogm.py:117)
enriched_description  # unused variable (kg_tools/ogm.py:119)
enrichment_topics  # unused variable (kg_tools/ogm.py:120)
enrichment_model  # unused variable (kg_tools/ogm.py:121)
enrichment_created  # unused variable (kg_tools/ogm.py:122)
enrichment_spec_hash  # unused variable (kg_tools/ogm.py:123)
enrichment_embedding_model  # unused variable (kg_tools/ogm.py:124)
tool_directly_depends_on  # unused variable (kg_tools/ogm.py:126)
tool_indirectly_depends_on  # unused variable (kg_tools/ogm.py:127)
parameter_indirectly_depends_on  # unused variable (kg_tools/ogm.py:129)
pending_at  # unused variable (kg_tools/ogm.py:185)
version_seq  # unused variable (kg_tools/ogm.py:186)
state_hash  # unused variable (kg_tools/ogm.py:200)
param_text  # unused variable (kg_tools/ogm.py:97)

# Test fixtures requested for their effect, tool parameters of the test MCP servers, a timing kept for debugging
_.listed_and_synced  # unused attribute (tests/integration/test_gateway_sync.py:49)
tlos_small  # unused variable (tests/integration/test_cli_load.py:148)
chain_graph  # unused variable (tests/integration/test_concurrent_writes.py:64)
note_id  # unused variable (tests/support/fixtures/tiny_mcp_server.py:24)
contents  # unused variable (tests/support/gateway_upstream.py:78)

# Public API of the agent adapters (docs/agents.md) and the framework hooks they implement
GatewayCalls  # unused class (kg_tools/integrations/calls.py)
retrieve_tools_coroutine  # unused function (kg_tools/integrations/langgraph.py)
_._get_relevant_documents  # unused method (kg_tools/integrations/langgraph.py): LangChain's BaseRetriever hook
run_manager  # unused variable (kg_tools/integrations/langgraph.py): LangChain passes it by keyword
_._node_postprocessors  # unused attribute (kg_tools/integrations/llama_index.py): ObjectRetriever reads it
_.log_errors  # unused attribute (kg_tools/gateway/validation.py): an RE2 option
subject  # unused variable (tests/integration/test_integrations.py): a tool's parameter, in its schema
