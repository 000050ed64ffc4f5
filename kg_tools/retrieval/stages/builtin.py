"""Registers every stage of this package with the pipeline (imported by kg_tools.retrieval).

transform:   rewrite, decompose, steps, multi-query, enriched, fusion-rrf, fusion-max, fusion-round-robin
post-search: dedupe, server-score, rerank-cross-encoder, rerank-llm (also via request.rerank), self-check
"""

from kg_tools.retrieval.pipeline import register_stage
from kg_tools.retrieval.stages.dedupe import Dedupe
from kg_tools.retrieval.stages.enriched import EnrichedSearch
from kg_tools.retrieval.stages.rerank import CrossEncoderRerank, LLMRerank
from kg_tools.retrieval.stages.selfcheck import SelfCheck
from kg_tools.retrieval.stages.server_score import ServerScore
from kg_tools.retrieval.stages.transform import Decompose, FusionChoice, MultiQuery, Rewrite, Steps

register_stage("rewrite", "transform", Rewrite)
register_stage("decompose", "transform", Decompose)
register_stage("steps", "transform", Steps)
register_stage("multi-query", "transform", MultiQuery)
register_stage("enriched", "transform", EnrichedSearch)
register_stage("fusion-rrf", "transform", lambda env: FusionChoice(env, "rrf"))
register_stage("fusion-max", "transform", lambda env: FusionChoice(env, "max"))
register_stage("fusion-round-robin", "transform", lambda env: FusionChoice(env, "round-robin"))
register_stage("dedupe", "post-search", Dedupe)
register_stage("server-score", "post-search", ServerScore)
register_stage("rerank-cross-encoder", "post-search", CrossEncoderRerank)
register_stage("rerank-llm", "post-search", LLMRerank)
register_stage("self-check", "post-search", SelfCheck)
