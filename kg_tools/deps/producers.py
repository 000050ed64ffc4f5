"""Producer -> consumer inference (the way REST API fuzzers such as RESTler infer request dependencies):
a parameter is served by a tool whose output holds the same thing.

1. Explicit OpenAPI `links` first: a 2xx response's link to operation B with parameters {p: expression}
   makes B's parameter p depend on this operation (method `openapi-links`, confidence 1).
2. Every tool's offers (kg_tools/deps/resources.py): identifying fields of its output schema with their
   resource (`items[].id` of a playlist list), else what its name and description say it returns (method
   `description`). Offers go into an inverted index resource -> offers: candidate generation is a lookup per
   parameter, never all pairs.
3. Every parameter that names an instance of a resource (`playlist_id`, `/albums/{id}`, `{team_key}`, `uris`,
   `repo`) gets its candidates (`want_candidates`): the producers of that resource in the index, the GET of the
   collection its path addresses (and the same collection under another parent), the POST that adds to it, and
   readers named after the resource -- only tools of the consumer's own server (`server__tool` names).
4. The rules' score and narrowing (list/search over get over create, each further id the producer needs, the
   collection the value lives in, the user's own list, not deprecated) become features of the learned scorer
   (kg_tools/deps/scoring.py), whose probability is the edge's `confidence`; it picks each parameter's providers
   or abstains. PARAMETER_DIRECTLY_DEPENDS_ON when the value is a field of what the producer is about,
   PARAMETER_INDIRECTLY_DEPENDS_ON when it is nested in another resource of the output or only described;
   TOOL_INDIRECTLY_DEPENDS_ON for `get_X`/`set_X` pairs and TOOL_DIRECTLY_DEPENDS_ON for a status tool of a
   service the source uses (the old name rules, index-based).

The rules' weights were set on our development specs, the scorer on the dev corpus (docs/dependencies.md),
never on a test half or a fresh catalog."""

from __future__ import annotations

import dataclasses
import json
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import groupby

from kg_tools.deps.docstrings import DOCSTRING
from kg_tools.deps.echoes import acts_on_wanted, echoed_nested
from kg_tools.deps.idlists import IdList, identifier_field, identifier_list, listed_identifier
from kg_tools.deps.offline import ProposedEdge
from kg_tools.deps.parents import parent_getter_proposals
from kg_tools.deps.resources import (
    ACROSS_TYPES,
    ALL_VERBS,
    CALLER_WORDS,
    CHANGE_VERBS,
    CONTAINER_NOUNS,
    CREATE_VERBS,
    FIELD_WORDS,
    FORMAT_WORDS,
    FREE_VALUES,
    GET_VERBS,
    ID_FIELDS,
    LIST_VERBS,
    NAME_CUTS,
    SCHEMA_NOISE,
    STOP,
    STRONG_FIELDS,
    SYNONYMS,
    VERSION_WORD,
    WEB_FIELDS,
    Offer,
    catalog_names,
    compound_head,
    current_prefix,
    described_owner,
    described_resources,
    function_name,
    included_resources,
    name_heads,
    name_verb_and_object,
    name_words,
    one_operation,
    own_identifier,
    parameter_resource,
    resource_key,
    schema_offers,
    searched_resources,
    singular,
    source_phrases,
    synonym,
    tool_part,
    web_address,
    words,
)
from kg_tools.deps.scoring import (
    Candidate,
    Scorer,
    add_relative,
    default_scorer,
    feature_vector,
    select,
    set_probabilities,
)
from kg_tools.deps.sources import (
    apart,
    catalog_groups,
    declared_source,
    gateway_server,
    product_families,
    short_name,
)
from kg_tools.deps.standins import stand_in_servers
from kg_tools.deps.unordered import may_flow, rare_words
from kg_tools.deps.vocabulary import vocabulary_proposals
from kg_tools.deps.workflow import Mention, ToolNames, another_way, mentions, runs_before, staged_for, stages, steps
from kg_tools.loaders.openapi import numbered_body
from kg_tools.tool_spec import DependencyType

PATTERN_WORDS = {"pattern", "patterns", "glob", "regex", "regexp"}  # a pattern is typed, not looked up
CHOICE_WORDS = {"type", "types", "kind", "mode", "format", "sort", "order", "direction"}  # `branch_type`: a choice
# Confidence parts (set on our development specs).
KIND_WEIGHT = {"search": 1.0, "list": 0.97, "auth": 1.0, "get": 0.85, "create": 0.6, "other": 0.5}
AUTH_VERBS = {"login", "authenticate", "sign", "signin", "logon", "authorize", "auth"}
SCHEMA_MATCH = 0.9  # the output schema holds the field of the resource
ANY_FIELD_MATCH = 0.72  # only the resource is known (described, or the field differs: uri for an id)
NESTED = 0.8  # the field belongs to a resource nested in another one of the output
DESCRIBED = 0.9  # the offer comes from the name/description, not a schema
STEP_COST = 0.9  # per further identifier the producer itself needs
DEPRECATED = 0.85
OWN_RESOURCES = 1.1  # the current user's list (/me/..., "current user's") for the resource a change addresses
RARE_PARAMETER = 3  # a bare noun (`revision`) taken by this few tools is looked up, not context (`repo`)
NESTED_ONLY_AS_FALLBACK = True  # a resource nested in another's output serves only when no tool is about it
CANDIDATES_PER_RESOURCE = 60  # the producers of a resource scored per parameter (best by their own merits first)
METHOD_LINKS, METHOD_SCHEMA, METHOD_DESCRIPTION, METHOD_NAMES, METHOD_PATH, METHOD_NAME = (
    "openapi-links",
    "output-schema",
    "description",
    "name-rules",
    "path-template",
    "name",
)


# "DEPRECATED: Use read_text_file instead.", "Deprecated: Use Segments instead.", "(deprecated) ..."
_DEPRECATED_TEXT = re.compile(r"(?:^|[.:;(\[]\s*)deprecated\b", re.I)


def is_deprecated(name: str, description: str, http: dict | None) -> bool:
    """OpenAPI `deprecated: true`, a name that starts with `deprecated`, or a description that says so."""
    return (
        bool(http and http.get("deprecated"))
        or tool_part(name).lower().startswith("deprecated")
        or _says_deprecated(description or "")
    )


@lru_cache(maxsize=65536)  # asked of every candidate's producer: 145,000 times on 2,400 tools in one part
def _says_deprecated(description: str) -> bool:
    return bool(_DEPRECATED_TEXT.search(description))


@dataclass
class Want:
    parameter: str
    resources: list[str]
    field: str  # an ID_FIELDS value, or * (the resource itself)
    required: bool
    in_path: bool = False  # the resource the operation addresses (/playlists/{playlist_id}/tracks)
    rare: bool = False  # at most RARE_PARAMETER tools of the catalog take a parameter of this name
    nested: bool = False  # a property inside an object or array parameter (`params.projectId`)
    typed: bool = False  # a `name` of a resource of the type another parameter gives (`resourceType`)
    fallback: list[str] = dataclasses.field(
        default_factory=list
    )  # other names of it, looked up when no tool offers `resources`


@dataclass
class Tool:
    """What producer -> consumer inference reads of one tool."""

    name: str
    description: str
    parameters: list[dict]
    output_schema: dict | None = None
    http: dict | None = None
    annotations: dict | None = None
    input_schema: dict | None = None  # the JSON schema of the arguments (MCP, OpenAI tools, OpenAPI): nested parameters
    kind: str = "other"  # search | list | get | create | change | other
    offers: list[Offer] = field(default_factory=list)
    wants: list[Want] = field(default_factory=list)
    operations: list[str] | None = None  # what its listing operations list, once read (_operations_listed)
    source: str = ""  # the server it comes from (kg_tools/deps/sources.py); '' when nothing tells
    group: str = ""  # its product group and zone inside a name family (sources.catalog_groups); '' when none

    @property
    def deprecated(self) -> bool:
        return is_deprecated(self.name, self.description, self.http)

    @property
    def own(self) -> bool:
        """Lists the current user's things (`/me/playlists`, "the current user's playlists")."""
        path = (self.http or {}).get("path") or ""
        text = f"{self.name} {self.description}".lower()
        return path.startswith("/me/") or path == "/me" or "current user" in text or "current_user" in text


def tool_kind(tool: Tool) -> str:
    method = _method(tool)
    if rpc_kind := _rpc_tool_kind(tool, method):
        return rpc_kind
    verb, _ = name_verb_and_object(tool.name)
    if _logs_in(tool, verb):
        return "auth"
    hints = tool.annotations or {}
    # a GET reads whatever verb its name holds (`bulkSendJobList`: a list of jobs that send, `datasetRunItems_list`)
    if method in ("DELETE", "PUT", "PATCH") or (verb in CHANGE_VERBS and method != "GET"):
        return "change"
    listing = _search_or_list(tool, verb)  # before destructiveHint: some servers mark every POST so
    if listing:
        return listing
    if hints.get("destructiveHint") is True:
        return "change"
    if method == "GET":  # a collection (/albums, /me/playlists) or one item (/albums/{id})
        return "get" if _path(tool).rstrip("/").endswith("}") else "list"
    if verb in GET_VERBS or hints.get("readOnlyHint") is True:
        return "list" if _gets_or_lists(tool) else _reader_kind(tool)
    if verb is None and not method and (told := _described_kind(tool)):
        return told
    if _post_search(tool, verb):
        return "search"
    return "create" if verb in CREATE_VERBS or method == "POST" else "other"


def _logs_in(tool: Tool, verb: str | None) -> bool:
    """A login (what it returns, a session token, is what the other calls need), or a call named after one that
    answers with a token (`updateLoginFlow` -> `session_token`)."""
    if verb in AUTH_VERBS or _starts_with(tool.name, AUTH_VERBS):
        return True
    return bool(set(words(tool.name)) & AUTH_VERBS) and _returns_token(tool.output_schema)


def _described_kind(tool: Tool) -> str | None:
    """A name without a verb (`project_environments`): the kind its description's first verb says."""
    told = _described_verb(tool)
    return _listing_kind(told) or (_reader_kind(tool) if told in GET_VERBS else None)


def _described_verb(tool: Tool) -> str | None:
    """The reading verb a description opens with ("List all environments in a project" -> list)."""
    first = words(_first_sentence(tool))[:1]
    return first[0] if first and first[0] in LIST_VERBS | GET_VERBS else None


def _first_sentence(tool: Tool) -> str:
    return tool.description.split(".", 1)[0][:200]


# RPC-style HTTP paths (`POST /collections.info`, `/documents.add_user`, `/chat.postMessage`): the last segment is
# `<resource>.<action>`, with no path template; a file format after a dot (`/t/{id}.json`) is no action.
# `collections.info`; a namespaced call (`users.profile.get`, `admin.users.list`): the parts before its action
_RPC_SEGMENT = re.compile(r"([A-Za-z][A-Za-z0-9_-]*(?:\.[A-Za-z][A-Za-z0-9_-]*)*)\.([A-Za-z][A-Za-z0-9_]*)")
FORMAT_SUFFIXES = {
    *("json", "ndjson", "xml", "yaml", "yml", "csv", "txt", "md", "html", "ics", "js", "rss", "atom", "graphql"),
    *("zip", "gz", "tar", "tgz", "pdf", "xlsx", "xls", "png", "jpg", "jpeg", "gif", "svg"),
}
INFO_ACTIONS = {"info", "details", "detail"}  # `collections.info`: reads one


def rpc_call(tool: Tool) -> tuple[list[str], list[str]] | None:
    """(the resource's words, the action's words) of an RPC-style path (`/collections.info` -> collections, info);
    None for a REST path or one with a template parameter."""
    path = _path(tool)
    if not path or "{" in path:
        return None
    m = _RPC_SEGMENT.fullmatch(path.rstrip("/").rsplit("/", 1)[-1])
    if not m or m.group(2).lower() in FORMAT_SUFFIXES:
        return None
    return words(m.group(1)), words(m.group(2))


def rpc_resource(tool: Tool) -> str | None:
    """The resource an RPC-style path's call is about (`/accessRequests.approve` -> access request)."""
    rpc = rpc_call(tool)
    return parameter_resource([singular(w) for w in rpc[0]]) if rpc and rpc[0] else None


def _rpc_tool_kind(tool: Tool, method: str) -> str | None:
    """The kind of an RPC-style call by its action, None for any other path; a GET whose action says nothing
    (`GET /export.xlsx`, `/v1/foo.bar`) reads as any GET."""
    rpc = rpc_call(tool)
    kind = _rpc_kind(rpc[1]) if rpc else None
    return None if kind == "change" and method == "GET" else kind


def _rpc_kind(action: list[str]) -> str:
    """The kind of an RPC call by its action: a reading or listing verb, `info`, or a plural noun
    (`documents.memberships`: lists them); a create verb; any other action changes an existing one
    (`users.suspend`, `documents.archive`)."""
    verb, _ = name_verb_and_object("_".join(action))
    if verb in AUTH_VERBS or action[:1] and action[0] in AUTH_VERBS:
        return "auth"  # `/auth.login`; not `/auth.info`, which reads one
    if listing := _listing_kind(verb):
        return listing
    if verb in GET_VERBS or action[:1] and action[0] in INFO_ACTIONS:
        return "get"
    if verb in CREATE_VERBS:
        return "create"
    if verb is None and action and singular(action[-1]) != action[-1]:
        return "list"
    return "change"


def _search_or_list(tool: Tool, verb: str | None) -> str | None:
    """`search` or `list` by the name's verb, or a search named after its verb (`start_search`); else None."""
    return _listing_kind(verb) or ("search" if _named_search(tool, verb) else None)


def _listing_kind(verb: str | None) -> str | None:
    """`search` for a searching verb, `list` for another listing one, else None."""
    if verb in LIST_VERBS or verb == "search":
        return "search" if verb in ("search", "find", "query", "lookup") else "list"
    return None


def _post_search(tool: Tool, verb: str | None) -> bool:
    """A search sent as a POST: named so, or to a search path (`POST /contacts/search`, `POST /points/scroll`)."""
    return _method(tool) == "POST" and (
        verb in ("search", "query", "find") or _path(tool).rstrip("/").endswith(SEARCH_ENDS)
    )


def _returns_token(schema: dict | None) -> bool:
    """The output schema has a token at its top (`token`, `session_token`, `accessToken`)."""
    props = (schema or {}).get("properties")
    return isinstance(props, dict) and any(words(str(k))[-1:] == ["token"] for k in props)


def _method(tool: Tool) -> str:
    """The HTTP method, upper case ('' without one), a QUERY read as a GET (`read_as`)."""
    return read_as(str((tool.http or {}).get("method") or "").upper())


def read_as(method: str) -> str:
    """OpenAPI 3.2's QUERY, a safe read whose body says what to find, as the GET it stands for (s24rev: three GETs of
    openmeter made QUERY lost 10 of 58 edges, the paths' readers among them); any other method as it is."""
    return "GET" if method == "QUERY" else method


def _path(tool: Tool) -> str:
    """The HTTP path template ('' without one), without a file format at its end (`/t/{id}.json` -> `/t/{id}`)."""
    path = (tool.http or {}).get("path") or ""
    head, dot, end = path.rpartition(".")
    return head if dot and end.lower() in FORMAT_SUFFIXES and "/" not in end else path


def _segment_resource(segment: str) -> str | None:
    """The resource a static path segment names; none for an abbreviation of one or two letters (`/t/{id}`,
    `/u/{username}`, `/b/{bucket}/o`)."""
    if len(segment) <= 2:  # but a short form of a resource's name (`/db/{name}`, `/pr/{number}`)
        return SYNONYMS.get(segment.lower())
    return resource_key(words(segment))


def _starts_with(name: str, verbs: set[str]) -> bool:
    """The name's first word is one of `verbs`."""
    first = words(name)[:1]
    return bool(first) and first[0] in verbs


def _reader_kind(tool: Tool) -> str:
    """A tool that reads without an HTTP method: `list` when it returns or says it returns many, else `get`."""
    if tool.output_schema is not None and _lists(tool.output_schema):
        return "list"
    first = words(_first_sentence(tool))[:1]
    # `git_log`, `directory_tree`: a container of things; "List Git branches": says it lists
    listing = words(tool.name)[-1:] and singular(words(tool.name)[-1]) in CONTAINER_NOUNS
    return "list" if _plural_object(tool.name) or listing or first and first[0] in LIST_VERBS else "get"


_GETS_OR_LISTS = re.compile(r"^\W*(?:get|retrieve|fetch|read|show|describe)\s+or\s+list\b", re.I)


def _gets_or_lists(tool: Tool) -> bool:
    """A reader without HTTP that says it gets one or lists many ("Get or list Kubernetes resources by resource type,
    name ..."): where the names of existing things come from, as a list is."""
    return not tool.http and bool(_GETS_OR_LISTS.match(tool.description))


def _plural_object(name: str) -> bool:
    _, rest = name_verb_and_object(name)
    content = [w for w in rest if w not in ("a", "an", "the", "of", "for", "by", "to")]
    return bool(content) and content[-1] != singular(content[-1])


def _lists(schema: dict) -> bool:
    """The output is a list: an array, or an object whose only array property is its items."""
    if schema.get("type") == "array":
        return True
    props = dict(_dict(schema.get("properties")))
    members = schema.get("allOf")
    for member in members if isinstance(members, list) else []:
        props = {**_dict(_dict(member).get("properties")), **props}
    arrays = [k for k, p in props.items() if isinstance(p, dict) and p.get("type") == "array"]
    # one array and a few paging fields, or nothing but arrays (`read_graph`: entities and relations)
    return len(arrays) == 1 and len(props) <= 6 or bool(arrays) and len(arrays) == len(props)


SEARCH_SEGMENTS = ("search", "scroll")  # POST /contacts/search, POST /collections/{}/points/scroll: read the collection
SEARCH_ENDS = tuple(f"/{end}" for end in SEARCH_SEGMENTS)
FOR_WORDS = {"for", "on", "to", "in", "into", "from", "with"}  # what a create makes comes before these


def created_resource(tool: Tool) -> str | None:
    """What a create makes: `create_entities` -> entity, `contacts_create` -> contact, POST /me/playlists -> playlist."""
    verb, _ = name_verb_and_object(tool.name)
    if tool.kind != "create" and verb not in ("create", "write", "new", "make", "insert"):
        return None
    rpc = rpc_call(tool)
    if rpc:  # `/collections.create` makes a collection, `/collections.add_user` a user's membership
        return resource_key(name_verb_and_object("_".join(rpc[1]))[1]) or rpc_resource(tool)
    ws = words(tool_part(tool.name))
    verb, rest = name_verb_and_object(tool.name)
    before = ws[: ws.index(verb)] if verb in ws else []
    static = [s for s in ((tool.http or {}).get("path") or "").split("/") if s and not s.startswith("{")]
    cut = next((i for i, w in enumerate(rest) if w in FOR_WORDS), len(rest))
    rest = rest[:cut]  # `createRecoveryCodeForIdentity` makes a recovery code, not an identity
    return resource_key(rest) or resource_key(before) or (resource_key(words(static[-1])) if static else None)


def parameter_wants(tool: Tool, p: dict, known: set[str]) -> Want | None:
    """What instance a parameter names, or None for a value a person gives (a query, a limit ...)."""
    want = _segment_named(tool, p, _parameter_wants(tool, p, known), known)
    if parent := _parent_want(tool, p, known, want):
        return parent
    existing = (
        _attached(tool, want) or _copies_from(tool, want) or _copy_source(p, want) or _acts_on(tool, p, want)
        if want
        else False
    )
    if want and not want.in_path and want.resources == [created_resource(tool)] and not existing:
        if not _numbered_parent(p):
            return None  # a create's `name` or `entities` are the new thing's, not another tool's output
    if want and not want.in_path and want.resources[:1] == [described_new(tool)]:
        return None  # "Creates a new file, or overwrites ...", "Append content to a new or existing file"
    if want and not existing and _names_the_new(tool, p, want):
        return None
    if want and _caller_gives(tool, p, want):
        return None
    return want


def _segment_named(tool: Tool, p: dict, want: Want | None, known: set[str]) -> Want | None:
    """A path parameter named by a word no tool of the catalog offers (Revolt's `/channels/{target}`,
    `/users/{target}/flags`) names an instance of the resource of the segment before it, when the catalog offers
    that; not a scope: one another parameter follows (`/workflow-templates/{namespace}/{name}`), nor the last
    segment of a list or a create (`GET|POST /workflow-templates/{namespace}`: the things listed or made)."""
    if not want or p.get("in") != "path" or any(r in known for r in want.resources):
        return want
    segments = [s for s in _path(tool).split("/") if s]
    at = segments.index(f"{{{p.get('name')}}}") if f"{{{p.get('name')}}}" in segments else 0
    after = segments[at + 1 : at + 2]
    if not at or segments[at - 1].startswith("{") or after[:1] and after[0].startswith("{"):
        return want
    if not after and tool.kind in ("list", "create"):
        return want
    before = words(segments[at - 1])
    named = parameter_resource(before) or (singular(before[0]) if len(before) == 1 else None)  # `/users/`: a user
    if named in known and _specific(named):
        want.resources, want.field = [str(named)], "id" if want.field == "*" else want.field
    return want


def _caller_gives(tool: Tool, p: dict, want: Want) -> bool:
    """A value the caller gives as it is, whatever its name: a web address, the contents of a file, or a value the
    tool generates when left out."""
    return (
        _gives_address(tool, p, want) or _gives_contents(tool, p) or _request_token(p) or generated_if_omitted(tool, p)
    )


def _gives_address(tool: Tool, p: dict, want: Want) -> bool:
    """A `url`/`uri` parameter declared a web address (`webhookUrl`, `format: uri`): the caller gives it, no tool's
    output; a nested one is marked by nested_parameters, a top-level one read in the tool's argument schema."""
    if want.field not in WEB_FIELDS:
        return False
    if p.get("path"):
        return bool(p.get("web_address"))
    props = (tool.input_schema or {}).get("properties")
    return isinstance(props, dict) and web_address(props.get(p.get("name")))


REQUEST_TOKEN_HEADS = {"request", "trace", "correlation"}


def _request_token(p: dict) -> bool:
    """A header that names the call itself (`X-Request-Id`, bunq's `X-Bunq-Client-Request-Id`, `X-Trace-Id`,
    `X-Correlation-ID`): a token the caller makes up to trace or de-duplicate the request, never an instance another
    tool returns (bunq's request responses and inquiries are no requests of this kind)."""
    ws = words(str(p.get("name") or ""))
    return p.get("in") == "header" and len(ws) > 1 and ws[-1] == "id" and ws[-2] in REQUEST_TOKEN_HEADS


NAMING_FIELDS = {("name",), ("title",), ("slug",), ("display", "name")}  # what a create calls its new instance


def _gives_contents(tool: Tool, p: dict) -> bool:
    """A top-level parameter declared file contents (`format: binary`, or an array of them): the bytes of an upload
    the caller gives, never an identifier another tool returns (Finix's `file` of an evidence upload)."""
    if p.get("path"):
        return False
    props = (tool.input_schema or {}).get("properties")
    schema = props.get(p.get("name")) if isinstance(props, dict) else None
    if isinstance(schema, dict) and isinstance(schema.get("items"), dict):
        schema = schema["items"]
    return isinstance(schema, dict) and schema.get("format") == "binary"


def _names_the_new(tool: Tool, p: dict, want: Want) -> bool:
    """A create's `name`, `title`, `slug` or `displayName` outside its path names the new instance: read as a name
    of anything (`postProject(name)` -> "name", `create_page(slug)` -> "slug", `addPlaylist(displayName)` ->
    "display"), as what the create makes (`createProject(slug)` -> project, app), or as any other word than one of
    its tool name's (`add_wiki(name)` "Name of the wiki page" -> page, `create_gear(name)` "the gear item" -> item;
    `createReleaseStage(name)` -> release: the head of the compound it makes). Kept only for a word of its name when
    the create makes no resource key (`create_collection(name)`: the gold's own convention, seventeenth session)."""
    field = tuple(words(str(p.get("name") or "")))
    if tool.kind != "create" or want.in_path or field not in NAMING_FIELDS:
        return False
    wanted = want.resources[0]
    if wanted in field:
        return True
    return created_resource(tool) is not None or wanted not in words(tool_part(tool.name))


# "If not provided, a new one will be generated", "auto-generated if omitted": the tool makes the value itself
_GENERATED_IF_OMITTED = re.compile(
    r"\b(?:if|when) (?:it is |one is |this is |left )?"
    r"(?:not (?:provided|given|specified|set|supplied|passed|present)|omitted|absent|blank|empty|unset|none)\b"
    r"[^.]{0,60}\bgenerat"
    r"|\bgenerat\w*[^.]{0,40}\b(?:if|when) (?:it is |one is |this is |left )?"
    r"(?:not (?:provided|given|specified|set|supplied|passed|present)|omitted|absent|blank|empty|unset)\b",
    re.I,
)


def generated_if_omitted(tool: Tool, p: dict) -> bool:
    """A value the tool generates when the caller leaves it out names the new instance, never one another tool
    returns (Dagu's `executeDAG(dagRunId)` "Optional ID for the DAG-run, if not provided a new one will be
    generated", FusionAuth's `createGroupWithId(groupId)`, Novu's `transactionId`, Grafana's folder `uid`). Read in
    the parameter's description and, for a top-level one, its schema's `allOf`/`anyOf`/`oneOf` members' (where
    an OpenAPI property that refers to a shared schema keeps its own description)."""
    texts = [str(p.get("description") or "")]
    props = (tool.input_schema or {}).get("properties")
    node = props.get(p.get("name")) if isinstance(props, dict) and not p.get("path") else None
    if isinstance(node, dict):
        texts += [str(m.get("description") or "") for k in UNION_KEYS for m in node.get(k) or () if isinstance(m, dict)]
    return any(_GENERATED_IF_OMITTED.search(t) for t in texts)


def _numbered_parent(p: dict) -> bool:
    """An integer whose name starts with `parent` (`parent`, `parent_location`, `parent_id`) of a create of X ("Parent
    stock location"): an X that exists already, not the new one."""
    return p.get("type") == "integer" and words(str(p.get("name") or ""))[:1] == ["parent"]


_RESOURCE_PATH = re.compile(r"\b[a-z]+s/(?:\{|\*|[a-z0-9-]+/[a-z]+s\b)")


def _parent_want(tool: Tool, p: dict, known: set[str], want: Want | None) -> Want | None:
    """A parent named by its role (`parent`, `parent_id`, `parentUid`, `parent_collection`, `parentCommentId`) of a
    tool about X whose name and description say nothing else of it (`want`, read as any parameter, names no resource
    of the catalog, or the one a create makes): an existing instance of what the rest of its name names, else of X
    itself (a task's parent is a task, a folder's a folder), even for a create of X."""
    ws = words(str(p.get("name") or ""))
    if len(ws) > 3 or ws[:1] != ["parent"] or p.get("type") not in (None, "string", "integer") or tool.http:
        return None
    if _RESOURCE_PATH.search(str(p.get("description") or "")):
        return None  # `parent`: "projects/{project}/locations/{location}": a container's resource name (AIP)
    if want and (want.resources[:1] != [created_resource(tool)]) and (want.resources[0] in known or want.fallback):
        return None
    field = ID_FIELDS.get(ws[-1], "id")
    if field not in STRONG_FIELDS:
        return None
    rest = [w for w in ws[1:] if w not in ID_FIELDS]
    key = parameter_resource(rest or list(_object_words(tool.name)))
    return _want(p, [key], field) if key in known else None


ATTACH_VERBS = {"add", "attach", "link", "assign", "pin"}  # `add_task_to_section`: puts an existing task there


def _attached(tool: Tool, want: Want) -> bool:
    """An identifier (not a name) of what a tool named `add_<X>_to_<Y>` adds: an existing X it attaches to a Y, not a
    new one (`add_task_to_section(task_id)`, `add_project_to_task(project_id)`)."""
    verb, rest = name_verb_and_object(tool.name)
    return (
        verb in ATTACH_VERBS
        and want.field not in ("name", "*")
        and any(w in FOR_WORDS for w in rest[1:])
        and not rpc_call(tool)
    )


# Verbs a name reads as a create that act on an instance already there (`stack_start`, `follow_channel`); a name
# without a known verb sent as a POST (`RefundPayment`, `ShareTrip`) does too
ACTING_VERBS = {"start", "follow", "submit", "write"}
# a description that lets the caller choose the new one's id ("Choose a custom ID", "Optional. The memo ID")
_CHOSEN_ID = re.compile(
    r"\b(?:choose|custom|optional(?:ly)?|explicit|immutable|if (?:omitted|empty|not (?:provided|set|given))"
    r"|to assign|will be generated)\b",
    re.I,
)


def _acts_on(tool: Tool, p: dict, want: Want) -> bool:
    """An id of the resource a create-kind tool is about that names an existing instance, not the new one's: the
    tool's name acts on one (`portainer_stack_start(stack_id)`, a POST named without a verb:
    `RefundPayment(payment_id)`); not an id the description lets one choose ("Choose a custom ID"). A name too when
    the parameter names its resource (`start_app(app_name)`); a bare `name` of a `write` is the new one's."""
    if want.field not in ("id", "name") or _CHOSEN_ID.search(str(p.get("description") or "")):
        return False
    verb, _ = name_verb_and_object(tool.name)
    if want.field == "name":
        return verb in ACTING_VERBS and len(words(str(p.get("name") or ""))) > 1
    return verb in ACTING_VERBS or (verb is None and tool.kind == "create")


COPY_VERBS = {"copy", "duplicate", "clone"}


def _copies_from(tool: Tool, want: Want) -> bool:
    """A copy made from an existing one (`CloneOrder(order_id)`, `duplicateDashboard(dashboardId)`): the identifier
    of what it copies names the original, not the new one."""
    first = words(tool_part(tool.name))[:1] + _path(tool).rstrip("/").rsplit("/", 1)[-1:]
    return bool(COPY_VERBS & set(first)) and want.field not in ("*", "name")


COPY_SOURCE_WORDS = {"source", "src", "original"}  # `sourceApplicationId`: the one a create copies


def _copy_source(p: dict, want: Want) -> bool:
    """An identifier named by the role of what a create copies (`createApplication(sourceApplicationId)`,
    `create_item(duplicateFromItemId)`): an existing instance of the resource the create makes, not the new one."""
    ws = words(str(p.get("name") or ""))
    if len(ws) < 3 or want.field in ("*", "name"):
        return False
    return ws[0] in COPY_SOURCE_WORDS or (ws[0] in COPY_VERBS and ws[1] == "from")


def _parameter_wants(tool: Tool, p: dict, known: set[str]) -> Want | None:
    name = str(p.get("name") or "")
    ws = _either_field(_parameter_name_words(name))
    if person := _person_want(p, ws, known):
        return person
    if p.get("type") == "object" and (brief := _brief_reference(tool, p, ws, known)):
        return brief
    if _free_value(name, ws) or _query_or_paging(p, ws):
        # an integer is no typed choice or text: `location_type: integer` of a catalog listing location types
        return _self_named_number(tool, p, ws, known) if ws and ID_FIELDS.get(ws[-1]) is None else None
    locator = _directory_want(tool, p, ws) or _abbreviated_want(tool, p, ws, known)
    if locator:
        return locator
    return _field_want(tool, p, _glued(ws[0], known) if len(ws) == 1 else ws, known)


def _field_want(tool: Tool, p: dict, ws: list[str], known: set[str]) -> Want | None:
    """What a parameter names by its last word: a number, a bare or a named identifier, a role or a noun."""
    field = ID_FIELDS.get(ws[-1])
    if _scalar(p, field):
        return _numbered_want(p, ws, known) or _self_named_number(tool, p, ws, known) if field is None else None
    if field and len(ws) == 1 and p.get("in") != "body":
        bare = _bare_want(tool, p, field, known)
        if bare or _subject_name(tool, p, field):
            return bare
    if field and (field != "name" or len(ws) > 1):
        return _identifier_want(tool, p, ws, field, known)
    return _role_want(tool, p, ws, known) or _noun_want(p, ws, known)


# A person named by the role they play in a thing (sixteenth session): `assignee`, `reviewer_ids`, `sender_id`
PERSON_ROLES = {"assignee", "reporter", "reviewer", "requester", "requestor", "sender", "recipient", "approver"}
# what catalogs call the people they know: those of a container (a repository, a workspace) before all users
PERSON_RESOURCES = ("collaborator", "member", "user", "person")


def _person_want(p: dict, ws: list[str], known: set[str]) -> Want | None:
    """A parameter that names a person by role by a number or an identifier (`assignee: integer`, `add_assignees:
    [integer]`, `assignee_id`, `requester_username`) when the catalog has no resource of that role's name: a user (or
    member, collaborator, person) of the catalog, those of a container (collaborators, members) before all users.
    Not a bare string (`assignee: string` may be a login, a name or an email: measured, not kept), an email (anyone's
    address, `recipient_email`), a role qualified by another resource of the catalog (`team_reviewer_ids`: teams) nor
    a search text (`searchReporterId`)."""
    if p.get("enum") or p.get("type") not in (None, "string", "integer", "number", "array") or not ws:
        return None
    field = ID_FIELDS.get(ws[-1])
    role = ws[:-1] if field else ws
    if not role or singular(role[-1]) not in PERSON_ROLES or parameter_resource(role[-1:]) in known:
        return None
    if any(parameter_resource([w]) in known or w in SEARCH_SEGMENTS for w in role[:-1]):
        return None  # `team_reviewers`: teams; `searchReporter`: text matched against reporters
    persons = [r for r in PERSON_RESOURCES if r in known]
    if not persons:
        return None
    items = p.get("items")
    item_type = items.get("type") if isinstance(items, dict) else None
    numeric = p.get("type") in ("integer", "number") or item_type in ("integer", "number")
    if not field and not numeric or field == "email":
        return None  # `assignee: string`, `reviewers: [string]`, `recipient_email`: kept as before (the docstring)
    want = _want(p, persons[:1], field or "id")
    want.fallback = persons[1:]
    return want


def _parameter_name_words(name: str) -> list[str]:
    """A parameter name's words: what brackets filter on (`filter[product_id_eq]`), no `X-` header prefix."""
    ws = bracketed_words(name) if "[" in name else words(name)
    return ws[1:] if ws and ws[0] == "x" and len(ws) > 1 else ws  # X-Session-Token


def _either_field(ws: list[str]) -> list[str]:
    """An identifier that takes either of two fields (`issueIdOrKey`, `organization_id_or_slug`, `id_or_name`)
    names the thing before them by the first (`issue id`), not a resource called "id"."""
    if len(ws) >= 3 and ws[-2] == "or" and ws[-1] in ID_FIELDS and ws[-3] in ID_FIELDS:
        return ws[:-2]
    return ws


_BRACKETED = re.compile(r"[\w.-]+\[([\w.-]+)\](?:\[\])?")
# Ransack-style filter operators (`filter[product_id_eq]`, `q[name_cont]`): with one of the first, the value is the
# identifier itself; with a comparison or a text match, a value a person gives
SAME_OPERATORS = {"eq", "in", "equals", "is", "any", "not", "ne", "neq", "nin"}
OTHER_OPERATORS = {"cont", "gt", "gte", "gteq", "lt", "lte", "lteq", "start", "end", "matches", "like", "null"}


def bracketed_words(name: str) -> list[str]:
    """The words of an identifier a bracketed query parameter filters on (`filter[product_id_eq]` -> product id,
    `where[user_id]` -> user id), its operator suffix dropped; none (a value a person gives) when the brackets end
    with another operator (`filter[sku_i_cont]`, `filter[created_at_gt]`); else the name's words."""
    m = _BRACKETED.fullmatch(name)
    ws = words(m.group(1)) if m else []
    while len(ws) > 1 and ws[-1] in SAME_OPERATORS:
        ws = ws[:-1]
    if ws and ws[-1] in ID_FIELDS:
        return ws
    return [] if ws and ws[-1] in SAME_OPERATORS | OTHER_OPERATORS or m and ws != words(m.group(1)) else words(name)


def _noun_want(p: dict, ws: list[str], known: set[str]) -> Want | None:
    """A noun (`repo`, `collection`): an instance of that resource itself."""
    if p.get("type") not in (None, "string", "array"):
        return None
    key = resource_key(ws) or _listed_noun(p, ws, known)
    if not key:
        return None
    if said := _described_id(p, ws, key, known):
        return _want(p, said, "id")
    return _want(p, [key], _described_field(p, key))


ID_WORDS = {"id", "ids", "identifier", "identifiers"}


def _described_id(p: dict, ws: list[str], key: str, known: set[str]) -> list[str] | None:
    """A one-word noun of an HTTP body or query (`channel`, `user`, `customer`: the id named only by its resource)
    whose description's first sentence calls it an ID of a resource ("ID of conversation to archive", "User ID to be
    removed"): that resource's id, the noun's own resource first (a channel is a conversation here)."""
    if len(ws) != 1 or p.get("in") not in ("body", "query") or p.get("path") or p.get("type") not in (None, "string"):
        return None
    if key not in known:
        return None
    text = words(re.split(r"\.\s", str(p.get("description") or ""), maxsplit=1)[0])
    for i, w in enumerate(text):
        if w not in ID_WORDS:
            continue
        after = [x for x in text[i + 1 : i + 4] if x not in ("the", "a", "an")]
        noun = text[i - 1 : i] if i and text[i - 1] not in STOP else after[1:2] if after[:1] == ["of"] else []
        owner = parameter_resource(noun) if noun else None
        if owner and (owner == key or owner in known):
            return [key] + ([owner] if owner != key else [])
    return None


def _described_field(p: dict, key: str) -> str:
    """Which identifier of its own noun a noun parameter holds, when its description opens by saying so ("name of
    the repo" for `repo`, "username of the collaborator"): that field; else `*`, the thing itself (ninth session).
    Not inside an object (`data.workspace`: nested wants are identifiers by their name, seventh session)."""
    ws = [w for w in words(str(p.get("description") or ""))[:5] if w not in ("the", "a", "an")]
    if p.get("path") or len(ws) < 3 or ws[1] != "of" or ws[0] not in ID_FIELDS:
        return "*"
    return ID_FIELDS[ws[0]] if parameter_resource(ws[2:3]) == key or resource_key(ws[2:3]) == key else "*"


def _listed_noun(p: dict, ws: list[str], known: set[str]) -> str | None:
    """A one-word string parameter whose noun is too generic for a schema title (`collection`, `model`, `item`)
    still names an instance when a tool of the catalog lists that noun (`list-collections`, `list_models`)."""
    if len(ws) != 1 or p.get("type") not in (None, "string"):
        return None
    key = parameter_resource(ws)
    return key if key in known else None


GLUED_FIELDS = ("names", "name", "paths", "path")  # `filepath`, `dirpath`, `fullname`: one word, an identifier
GLUED_IDS = ("ids", "id", "keys", "key")  # `vmid`, `buildid`: an id glued to its resource, lower case


def _glued(word: str, known: set[str]) -> list[str]:
    """A one-word name that ends with an identifier word (`filepath` -> file path, `dirpath` -> directory path);
    the identifier alone when the rest names no resource of the catalog (`fullname` -> name)."""
    if word in ID_FIELDS:
        return [word]
    if glued := _glued_id(word, known):
        return glued
    for end in GLUED_FIELDS:
        head = word[: -len(end)]
        if word.endswith(end) and len(head) >= 3:
            end = singular(end)  # the field word ID_FIELDS knows (`paths` -> path)
            return [head, end] if parameter_resource([head]) in known else [end]
    return [word]


def _glued_id(word: str, known: set[str]) -> list[str] | None:
    """A lower-case `<resource>id` (`vmid`, `buildid`, `folderids`): the resource's id when the head is a resource the
    catalog offers; not a word that only ends so (`valid`, `android`, `passkey`: their heads name no resource)."""
    head = _glue_head(word)
    if head != word and head.isalpha() and head not in STOP and parameter_resource([head]) in known:
        return [head, word[len(head) :]]
    return None


def _glue_head(word: str) -> str:
    """The word without an identifier glued to its end (`vmid` -> vm), at least two letters left; else the word."""
    return next((word[: -len(end)] for end in GLUED_IDS if word.endswith(end) and len(word) >= len(end) + 2), word)


def _bare_want(tool: Tool, p: dict, field: str, known: set[str]) -> Want | None:
    """A one-word identifier: of the resource its description names (`names`: "An array of entity names"), else
    a required `name` of a get or change is the name of the thing the tool is about (`get_node(name)`)."""
    owner = described_owner(str(p.get("description") or ""), field, str(p.get("name") or "").lower(), known)
    if owner in known:
        return _want(p, [owner], field)
    if _subject_name(tool, p, field):
        resources = [r for r in context_resources(tool, p, str(p.get("name") or ""), known) if r in known]
        if resources:
            return _want(p, resources[:1], field)
    return _typed_name_want(tool, p, field, known)


TYPE_WORDS = {"type", "kind"}


def _typed_name_want(tool: Tool, p: dict, field: str, known: set[str]) -> Want | None:
    """A `name` beside a parameter that gives the type of the thing (`kubectl_describe(resourceType, name)`,
    `resource_kind`): the name of an existing instance of any resource type, when a tool of the catalog offers such
    generic resources (a `get` or list of resources of a type)."""
    if field != "name" or words(str(p.get("name") or ""))[-1:] != ["name"] or tool.kind == "create":
        return None
    if "resource" not in known or not _type_parameter(tool):
        return None
    want = _want(p, ["resource"], field)
    want.typed = True
    return want


def _type_parameter(tool: Tool) -> str | None:
    """The name of the parameter that gives the type of resource a tool works on (`resourceType`, `resource_kind`)."""
    for q in tool.parameters:
        ws = words(str(q.get("name") or ""))
        if len(ws) == 2 and ws[0] == "resource" and ws[1] in TYPE_WORDS:
            return str(q.get("name"))
    return None


def _subject_name(tool: Tool, p: dict, field: str) -> bool:
    """A required `name` of a tool that reads or changes one thing (`get_node(name)`, `delete_index(name)`)."""
    return field == "name" and bool(p.get("required")) and tool.kind in ("get", "change")


def _want(p: dict, resources: list[str], field: str) -> Want:
    return Want(str(p.get("name") or ""), resources, field, bool(p.get("required")), p.get("in") == "path")


def _free_value(name: str, ws: list[str]) -> bool:
    """A value a person gives: a query, a limit, a pattern, a choice (`branch_type`)."""
    return (
        not ws or " ".join(ws) in FREE_VALUES or name.lower() in FREE_VALUES or ws[-1] in PATTERN_WORDS | CHOICE_WORDS
    )


PAGING_WORDS = {"pagination", "paging", "paginate"}


def _query_or_paging(p: dict, ws: list[str]) -> bool:
    """A query a person writes ("JQL query string", "SQL query to execute") or a paging token ("Pagination token
    from a previous search result"): values of no other tool, whatever the parameter is called (`jql`, `page_token`)."""
    if p.get("type") not in (None, "string"):
        return False
    text = words(str(p.get("description") or ""))
    written = "query" in text[:3] and ws[-1] not in ID_FIELDS
    return written or bool(PAGING_WORDS & set(text[:3])) and ws[-1] in ("token", "cursor") or _page_token(ws)


def _page_token(ws: list[str]) -> bool:
    """A token or cursor of a page (`nextPageToken`, `page_token`, `next_cursor`): the same list's next page, described
    or not."""
    return len(ws) > 1 and ws[-1] in ("token", "cursor") and bool({"page", "next"} & set(ws[:-1]))


def _scalar(p: dict, field: str | None) -> bool:
    """A flag, a choice among listed values, or a number that is not an identifier."""
    return bool(
        p.get("type") == "boolean"
        or p.get("enum")
        or p.get("type") in ("number", "integer")
        and field not in ("id", "number")
    )


def _numbered_want(p: dict, ws: list[str], known: set[str]) -> Want | None:
    """A number named after a resource of the catalog that its description calls that resource's id
    (`placement_group`: "ID of the Placement Group the Server should be in", `milestone`: "milestone id"), or a
    one-word one with no description at all outside a path or body (`correspondent: number`): a number is no name.
    Not a plural with no description (`mailboxes: integer`, `aliases`: how many a domain may hold, a count)."""
    if p.get("type") not in ("integer", "number") or p.get("enum"):
        return None
    key = parameter_resource(ws)
    said = words(str(p.get("description") or ""))[:8]
    if key in known and not said and len(ws) == 1 and p.get("in") not in ("path", "body"):
        return _want(p, [key], "id") if singular(ws[0]) == ws[0] else None  # not a body's `rollout: number`, a share
    if key not in known or singular(ws[-1]) not in {singular(w) for w in said}:
        return None
    return _want(p, [key], "id") if {"id", "identifier"} & set(said) else None


# A number named so is a quantity, a position or a state, not a thing (`page`, `count`, `port`, `version`, `status`):
# the names integer fields carry in the dev catalogs' dev halves with no gold edge (lead C6 of the spent11d study)
MEASURE_WORDS = {
    "page", "offset", "limit", "count", "size", "index", "port", "value", "version", "status", "order", "level",
    "vote", "permission", "quota", "period", "priority", "position", "number", "total", "depth", "weight",
}  # fmt: skip
OWN_ROLE_WORDS = {"parent", "default", "primary"}  # `parent_location`, `default_warehouse`: still a location's id
# a number its description counts, bounds or enumerates ("Number of ...", "Bitmask: 1=close problem", "1 Incident")
_COUNTED = re.compile(r"\b\d+\s*(?:=|:|-)?\s*[A-Za-z]|\b(?:number|maximum|minimum|amount|max|min) of\b", re.I)


def _self_named_number(tool: Tool, p: dict, ws: list[str], known: set[str]) -> Want | None:
    """An integer field named by a resource of the catalog itself, no id word (`part: integer` "Select part",
    `location`, `stock_item`, `parent_location`; a bare `parent`: the tool's own resource): that resource's id, the
    way Django REST specs write a foreign key. A top-level field, every word of its name a resource of the catalog (or
    a generic one: `item`), its last word no quantity or position (MEASURE_WORDS) nor a plural, and no number its
    description counts or enumerates."""
    if p.get("type") != "integer" or p.get("enum") or p.get("in") == "path" or p.get("path") or not ws:
        return None  # nor a field inside an object (`part_detail.default_location`: a copy of the part it shows)
    core = ws[1:] if len(ws) > 1 and ws[0] in OWN_ROLE_WORDS else ws
    if singular(core[-1]) in MEASURE_WORDS or singular(core[-1]) != core[-1]:
        return None  # `page`, `version`; a plural counts (`tracking_items`, `max_issues`)
    if _COUNTED.search(str(p.get("description") or "")):
        return None
    key = _self_named_key(tool, core, known)
    return _want(p, [key], "id") if key and key in known else None


def _brief_reference(tool: Tool, p: dict, ws: list[str], known: set[str]) -> Want | None:
    """A top-level object field named by a resource of the catalog (`site`, `tenant`, `parent_location`) whose schema
    is a brief reference: every property it requires an identifier (`{name, slug}`, `{name}`) and none an own id (a
    `{id}` is wanted inside, as `site.id`), the way drf-spectacular writes a foreign key one may also send as the
    related instance's natural key (NetBox's `BriefSiteRequest`): that resource's id. Not the tool's own resource
    (`update_taxonomy(taxonomy: {name})`: the new data of the thing itself), except under a role word (`parent`)."""
    if not ws or p.get("path") or not _brief_schema(tool, str(p.get("name") or "")):
        return None
    core = ws[1:] if len(ws) > 1 and ws[0] in OWN_ROLE_WORDS else ws
    key = _self_named_key(tool, core, known)
    own = parameter_resource(list(_object_words(tool.name))) or created_resource(tool)
    if not key or key not in known or (key == own and core == ws and ws != ["parent"]):
        return None
    return _want(p, [key], "id")


def _brief_schema(tool: Tool, name: str) -> bool:
    """The input schema's property `name` is one object whose required properties are all identifiers, none an own
    id (see _brief_reference)."""
    root = tool.input_schema or {}
    shapes = schema_shapes(_dict(root.get("properties")).get(name), root, unions=False)
    if len(shapes) != 1 or not isinstance(shapes[0].get("properties"), dict):
        return False
    listed = shapes[0].get("required")
    required = [r for r in listed if isinstance(r, str)] if isinstance(listed, list) else []
    if not required or any(_own_id(n) for n in shapes[0]["properties"]):
        return False
    return all(len(words(r)) == 1 and words(r)[0] in ID_FIELDS for r in required)


def _self_named_key(tool: Tool, core: list[str], known: set[str]) -> str | None:
    """The resource a self-named field's words name: a bare `parent` the tool's own (of an HTTP operation only), else
    the whole name when every word is a resource of the catalog or a generic one."""
    if core == ["parent"]:
        return (parameter_resource(list(_object_words(tool.name))) or created_resource(tool)) if tool.http else None
    if not all(parameter_resource([w]) in known or not _specific(parameter_resource([w])) for w in core):
        return None
    key = parameter_resource(core)
    return key if key in {singular(w) for w in core} else None  # `owner`: a user, by another word


def _identifier_want(tool: Tool, p: dict, ws: list[str], field: str, known: set[str]) -> Want | None:
    """An identifier (`playlist_id`, `team_key`, `ids`): of the resource its name says, else (a strong field
    outside a body) of the resource its context says."""
    resources = [r for r in [parameter_resource(ws[:-1])] if r] if len(ws) > 1 else []
    resources = _path_named(tool, p, resources, known) or _stop_word_resource(ws, known)
    if not resources:
        # a body's own `id` is the object's, except in an RPC call, which addresses its thing by it
        if field not in STRONG_FIELDS:
            return None
        if p.get("in") == "body" and not rpc_resource(tool):  # or one whose path says which thing it addresses
            top = field in ("id", "key") and not p.get("path")  # a nested property's `id` is its element's own
            subject = body_subject(tool, known) if top else None
            if not subject:
                return None
            resources = [subject]
        else:
            resources = context_resources(tool, p, str(p.get("name") or ""), known)
    resources, field = _user_field(tool, ws, field, resources, known)
    resources = resources if tool.http else _named_head(ws, resources, known)
    want = _want(p, resources + also_accepted(p, resources, known), field) if resources else None
    if want and field not in ("username", "login", "email"):
        want.fallback = [r for r in _fallback_resources(p, known) if r not in want.resources]
    return want


def _path_named(tool: Tool, p: dict, resources: list[str], known: set[str]) -> list[str]:
    """A path parameter named by a generic word (`/api/foods/{item_id}` of a generic CRUD router) names the resource of
    the segment before it, when that is one the catalog offers (the want side of `_named_by_path`); else `resources`."""
    if resources[:1] and resources[0] in GENERIC_RESOURCES and p.get("in") == "path":
        named = [r for r in _path_context(tool, str(p.get("name") or ""), known) if _specific(r) and r in known]
        return named or resources
    return resources


def body_subject(tool: Tool, known: set[str]) -> str | None:
    """The existing thing a bare identifier in a body addresses, by a path that ends in a static segment, when the
    tool's name names it too: the resource before an action (`POST /registries/ping`, `/v3/lease/revoke`), the one an
    action names (`POST /api/delete-user`), or the one a change that is no create puts (`PUT /pet`); None for a POST
    to the resource (`POST /pets {id}`: the new one's own), a thing that may be new (`_may_be_new`) or a resource the
    name does not say (`set_payload`)."""
    segments = [s for s in _path(tool).split("/") if s]
    if not segments or segments[-1].startswith("{") or _may_be_new(tool, segments[-1]):
        return None
    verb, rest = name_verb_and_object(segments[-1])
    resource = resource_key(rest) if rest else None
    if resource in known:
        changed = _method(tool) in ("PUT", "PATCH", "DELETE") and tool.kind != "create"
        resource = resource if verb or changed else None
    else:
        before = segments[-2] if len(segments) > 1 and not segments[-2].startswith("{") else ""
        resource = _segment_resource(before) if before else None
        resource = resource if resource in known else None
    return resource if resource and set(resource.split()) <= name_words(tool.name) else None


def _may_be_new(tool: Tool, segment: str) -> bool:
    """The thing a body names may not exist yet: the tool is described as a create ("Create a label") or is an
    upsert by its name or last path segment (`PUT /links/upsert`)."""
    described = words(_first_sentence(tool))[:1] in (["create"], ["creates"])
    return described or "upsert" in words(tool.name) + words(segment)


def _stop_word_resource(ws: list[str], known: set[str]) -> list[str]:
    """`list_id`, `listIds`: the one word before the identifier is a verb or a function word in a description ("list",
    dropped as a resource), yet a resource the catalog offers (its `lists`): that resource."""
    if len(ws) != 2 or ws[0] not in STOP:
        return []
    key = singular(ws[0])
    return [key] if key in known else []


def _user_field(tool: Tool, ws: list[str], field: str, resources: list[str], known: set[str]) -> tuple[list[str], str]:
    """A `username`, `login` or `email` is a user's (an email is any field of one); a bare username or login of an
    HTTP operation wants a user first."""
    if field not in ("username", "login", "email"):
        return resources, field
    resources, field = resources or ["user"], "*" if field == "email" else field
    if field in ("username", "login") and len(ws) == 1 and tool.http and "user" in known:
        resources = ["user"] + [r for r in resources if r != "user"]
    return resources, field


def _fallback_resources(p: dict, known: set[str]) -> list[str]:
    """Other names of what an identifier names, looked up only when no tool offers its own (`messageId`: "ID of
    the email message"): the nouns right after its description's first `of`."""
    ws = words(str(p.get("description") or ""))
    if "of" not in ws:
        return []
    after = [w for w in ws[ws.index("of") + 1 : ws.index("of") + 4] if w not in ("the", "a", "an")][:2]
    head = compound_head(after, known)  # "ID of the rule group": a group first
    return [head] if head else [r for r in (parameter_resource([w]) for w in after) if r and r in known]


def context_resources(tool: Tool, p: dict, name: str, known: set[str]) -> list[str]:
    """The resource an unqualified identifier (`id`, `ids`, `uris`) names: the path segment before
    `{id}` (or the last static one for a query list), else the nouns of its description, else the tool name."""
    out = _path_context(tool, name, known)
    text = " ".join(str(p.get(k) or "") for k in ("description", "title"))
    ws = words(text)
    for before, w in zip(["", *ws], ws):
        r = resource_key([w]) if before != "this" else None  # "This field is ignored": the parameter itself
        if r and r in known and r not in out:
            out.append(r)
    if not any(out):
        verb, rest = name_verb_and_object(tool.name)
        rest = _less_key_cut(rest)
        r = (
            _group_owner(tool, verb, rest, known)
            or _listing_owner(tool, rest)
            or resource_key(rest)
            or _noun_before_verb(tool.name, verb)
        )
        r = _operation_last(verb, rest, r, known) or r
        if r:
            out.append(r)
    return [r for r in out if r][:3]


def _group_owner(tool: Tool, verb: str | None, rest: list[str], known: set[str]) -> str | None:
    """The group a name opens with before its verb (Speakeasy's `<group>-<operation>`), a known resource, when the
    object after the verb is things of it (plural: `customers-list-subscriptions(id)`, `customers-get-orders(id)`)
    or no known resource (`webhooks-get-secret(id)`): a bare identifier there is the group's. A singular known
    object keeps it (`customer-credits-get-account(id)`: the account). Names without HTTP only (a path says it)."""
    if tool.http or not verb or not rest:
        return None
    ws = words(tool_part(tool.name))
    if verb not in ws or ws.index(verb) in (0, len(ws) - 1):
        return None
    owner = resource_key(ws[: ws.index(verb)])
    if owner not in known or owner == resource_key(rest):
        return None
    return owner if singular(rest[-1]) != rest[-1] or resource_key(rest) not in known else None


def _operation_last(verb: str | None, rest: list[str], r: str | None, known: set[str]) -> str | None:
    """A name with no verb read whose last word is no known resource and whose words before it are one
    (`subscriptions-resume(id)`, `licenses-activate(key)`: an operation the verbs do not hold, named after its
    thing): the thing before it, not the operation, when those words are the thing's alone."""
    if verb or len(rest) < 2 or r in known:
        return None
    before = resource_key(rest[:-1])
    if before not in known or not {singular(w) for w in rest[:-1]} <= set(before.split()):
        return None  # `rotateManagedOAuthApplicationWebhookSecret`: more than the thing before the last word
    return before


def _less_key_cut(rest: list[str]) -> list[str]:
    """A name's object less a closing "by" and the key it is read by (`get-project-by-id` -> project,
    `find_user_by_email` -> user): the key is a field of the thing, not the thing (`tasks_by_project` keeps it)."""
    cut = rest.index("by") if "by" in rest[1:] else len(rest)
    return rest[:cut] if rest[cut + 1 :] and all(w in ID_FIELDS for w in rest[cut + 1 :]) else rest


def _listing_owner(tool: Tool, rest: list[str]) -> str | None:
    """The owner whose things a list without HTTP lists (`monitor_checks(id)`: "List historical checks for a
    monitor"): its bare identifier names the owner, not one of the things listed."""
    if tool.kind != "list" or tool.http or len(rest) < 2 or singular(rest[-1]) == rest[-1]:
        return None
    owner = rest[:-1]
    while len(owner) > 1 and owner[-1].endswith("ed"):  # `dataset_queued_events`: a participle is no owner
        owner = owner[:-1]
    return resource_key(owner)


def _noun_before_verb(name: str, verb: str | None) -> str | None:
    """The thing of a name that puts its verb last (`firecrawl_monitor_get` -> monitor, `contacts_delete`), a known
    resource of the catalog or not: the words between a prefix and the verb."""
    ws = words(tool_part(name))
    if not verb or verb not in ws or ws.index(verb) == 0:
        return None
    return resource_key(ws[: ws.index(verb)])


def _path_context(tool: Tool, name: str, known: set[str]) -> list[str]:
    """The resource of the path segment before `{name}`, else of the last static one when it is a known
    resource (PUT /me/albums?ids=); '' for a segment that names none."""
    rpc = rpc_resource(tool)
    if rpc:  # POST /collections.info {id}: the collection
        return [rpc]
    segments = [s for s in _path(tool).split("/") if s]
    static = [s for s in segments if not s.startswith("{")]
    if f"{{{name}}}" in segments:  # /albums/{id}: the segment before
        before = [s for s in segments[: segments.index(f"{{{name}}}")] if not s.startswith("{")]
        return [_segment_resource(before[-1]) or ""] if before else []
    if static and (resource_key(words(static[-1])) in known):  # PUT /me/albums?ids=
        return [resource_key(words(static[-1])) or ""]
    return []


# MCP locators and search providers (issue 28, seventh session): what kind of locator a parameter is (a file's path
# or a directory's, an element's reference, a thing a move starts from) and which searches return it.
MOVE_VERBS = {"move", "copy", "rename", "duplicate", "clone"}  # `move_file(source, destination)`
SOURCE_WORDS = {"source", "src"}
DIRECTORY_RESOURCES = {"directory"}  # `folder`, `dir` are synonyms of it (resources.SYNONYMS)
LOCATOR_FIELDS = {"ref": "ref", "reference": "ref", "identifier": "id", "id": "id", "sha": "sha"}


def _directory_want(tool: Tool, p: dict, ws: list[str]) -> Want | None:
    """The bare `path` of a list or search is where to look, a directory (`list_directory`, `search_files`), unless
    the tool reads one thing (`_reads_one`)."""
    if ws == ["path"] and tool.kind in ("list", "search") and not _reads_one(tool):
        return _want(p, ["directory"], "path")
    return None


def _role_want(tool: Tool, p: dict, ws: list[str], known: set[str]) -> Want | None:
    """A parameter named by its role, not by an identifier: a move's `source`, or what its description says it is."""
    return (
        _moved_want(tool, p, ws, known)
        or _described_identifier_want(tool, p, ws, known)
        or _identifier_of_want(tool, p, ws, known)
    )


# "Unique identifier (ID) of the board that you want to copy", "The ID of the project to ..."
_IDENTIFIER_OF = re.compile(
    r"^\W*(?:the\s+)?(?:unique\s+)?(?:identifier|id)\s+(?:\(id\)\s+)?of\s+(?:the|a|an)\s+((?:\w+\s+){0,2}?\w+)"
    r"(?=\s+(?:that|which|to|for|in|on|from|you|whose|where|with)\b|\s*[.,;:()]|\s*$)"
)  # the noun run up to a function word: "the target Service for ..." -> target service -> service


def _identifier_of_want(tool: Tool, p: dict, ws: list[str], known: set[str]) -> Want | None:
    """A parameter named by its role (`copyFrom`), not by a resource of the catalog, whose description opens with
    "identifier of the X": an id of X, when a tool of the catalog offers X."""
    if p.get("type") not in (None, "string") or not ws or ws[-1] in ID_FIELDS or parameter_resource(ws) in known:
        return None
    m = _IDENTIFIER_OF.match(str(p.get("description") or "").lower())
    key = parameter_resource(m.group(1).split()) if m else None
    return _want(p, [key], "id") if key and key in known else None


def _reads_one(tool: Tool) -> bool:
    """A reader named after one thing that is no directory (`read_media_file`): its bare `path` is that thing's, even
    when its output lists content blocks."""
    verb, rest = name_verb_and_object(tool.name)
    content = [w for w in rest if w not in ("a", "an", "the")]
    if verb not in GET_VERBS or not content or singular(content[-1]) != content[-1]:
        return False
    return resource_key(content) not in DIRECTORY_RESOURCES


# the tool's own first words ("Creates a new file, or ..."; not "To create a NEW item, use another tool"), or anywhere
_NEW_THING = re.compile(r"^\W*(?:creates?|makes?|writes?)\s+a\s+new\s+(\w+)|\ba\s+new\s+or\s+existing\s+(\w+)", re.I)


def described_new(tool: Tool) -> str | None:
    """What a tool's description says it creates ("Creates a new file, or COMPLETELY OVERWRITES ...", "Append content
    to a new or existing file"): its parameter naming that thing names a new one, not another tool's output."""
    m = _NEW_THING.search(tool.description) if tool.kind != "create" else None  # a create's own: created_resource
    return parameter_resource([(m.group(1) or m.group(2)).lower()]) if m else None


def _moved_want(tool: Tool, p: dict, ws: list[str], known: set[str]) -> Want | None:
    """The `source` of a move, copy or rename (`move_file(source, destination)`): an existing instance of what the
    tool's name moves; the destination is a new one."""
    verb, rest = name_verb_and_object(tool.name)
    if not ws or ws[-1] not in SOURCE_WORDS or verb not in MOVE_VERBS:
        return None
    key = resource_key(rest)
    return _want(p, [key], "*") if key in known and p.get("type") in (None, "string", "array") else None


# "Exact target element reference from the page snapshot": the parameter is an element's reference.
_LOCATOR = re.compile(r"^\W*(?:[a-z]+\s+){0,3}?([a-z]+)\s+(reference|ref|identifier|id|sha)\b")


def _described_identifier_want(tool: Tool, p: dict, ws: list[str], known: set[str]) -> Want | None:
    """A parameter named by its role (`target`, `startTarget`), not by a resource of the catalog, whose description
    opens with the identifier it is ("Exact target element reference ..."): an instance of that resource, when a tool
    of the catalog offers it."""
    if tool.http or p.get("type") not in (None, "string") or not ws or ws[-1] in ID_FIELDS:
        return None
    if parameter_resource(ws) in known:
        return None  # a resource of the catalog names what it is itself
    m = _LOCATOR.match(str(p.get("description") or "").lower())
    key = parameter_resource([m.group(1)]) if m else None
    return _want(p, [key], LOCATOR_FIELDS[m.group(2)]) if m and key in known else None


def also_accepted(p: dict, resources: list[str], known: set[str]) -> list[str]:
    """Other resources an identifier's description says it takes ("Identifier for a Notion block or page", "Also
    accepts a page ID", "a Notion page (or block)"), after its own: looked up when no tool provides its own."""
    text = str(p.get("description") or "").lower()
    if not resources or not text or p.get("in"):  # tools without HTTP (an OpenAPI parameter has its `in`)
        return []
    head = re.escape(resources[0].split()[-1])
    said = re.findall(rf"\b{head}s?\s*\(?\s*(?:or|and)\s+(?:an?\s+)?\[?([a-z]+)", text)
    said += re.findall(r"\balso\s+accepts?\s+(?:an?\s+)?\[?([a-z]+)", text)
    keys = [parameter_resource([w]) for w in said]
    return list(dict.fromkeys(k for k in keys if k and k in known and k not in resources))


def _named_head(ws: list[str], resources: list[str], known: set[str]) -> list[str]:
    """An identifier whose name's last noun is a resource of the catalog that the name's key dropped
    (`source_page_id`: "page" is a paging word in schema titles, so the key was "source"): that noun."""
    if len(ws) < 3 or not resources or resources[0] in known:
        return resources
    head = parameter_resource(ws[-2:-1])
    return [head] if head in known else resources


def _abbreviated_want(tool: Tool, p: dict, ws: list[str], known: set[str]) -> Want | None:
    """An identifier abbreviated to its resource's initial (`pid` of `kill_process`): the id of the resource of the
    catalog that the tool's name gives and that starts with that letter (tools without HTTP)."""
    m = re.fullmatch(r"([a-z])id", ws[0]) if len(ws) == 1 and ws[0] not in ID_FIELDS and not tool.http else None
    if not m:
        return None
    named = [singular(w) for w in words(tool_part(tool.name)) if w.startswith(m.group(1))]
    keys = [k for k in (parameter_resource([w]) for w in named) if k in known]
    return _want(p, keys[:1], "id") if keys else None


def _named_search(tool: Tool, verb: str | None) -> bool:
    """A tool without HTTP named a search after its verb (`start_search`, `run_search`) that changes nothing: a
    search, whatever the verb."""
    _, rest = name_verb_and_object(tool.name)
    hints = tool.annotations or {}
    return not tool.http and verb is not None and rest == ["search"] and hints.get("destructiveHint") is not True


def catalog_compounds(tools: dict[str, Tool]) -> set[tuple[str, str]]:
    """Two-word resources of a catalog whose first word resource_key drops as schema noise (`data source`: "data"):
    said together in at least two tool names and in an identifier parameter's name (`data_source_id`)."""
    named: dict[tuple[str, str], int] = defaultdict(int)
    ids: set[tuple[str, str]] = set()
    for t in tools.values():
        ws = [singular(w) for w in words(tool_part(t.name))]
        for pair in set(zip(ws, ws[1:])):
            if pair[0] in SCHEMA_NOISE and pair[1] not in SCHEMA_NOISE | STOP:
                named[pair] += 1
        for p in t.parameters:
            pw = [singular(w) for w in words(str(p.get("name") or ""))]
            if len(pw) >= 3 and pw[-1] in ID_FIELDS:
                ids.add((pw[-3], pw[-2]))
    return {pair for pair, n in named.items() if n >= 2 and pair in ids}


def _compound_key(ws: list[str], compounds: set[tuple[str, str]]) -> str | None:
    """The resource a run of words names, a catalog compound kept whole (`data_source` -> data source)."""
    sw = [singular(w) for w in ws]
    if len(sw) >= 2 and (sw[-2], sw[-1]) in compounds:
        return f"{sw[-2]} {sw[-1]}"
    return parameter_resource(ws) if ws else None


def _compound_resource(resource: str, text: str, compounds: set[tuple[str, str]]) -> str:
    """`source` as the compound a name says it with (`API-retrieve-a-data-source`, `data_source_id`)."""
    sw = [singular(w) for w in words(text)]
    for a, b in zip(sw, sw[1:]):
        if b == resource and (a, b) in compounds:
            return f"{a} {b}"
    return resource


def compound_offers(tools: dict[str, Tool], compounds: set[tuple[str, str]]) -> None:
    """Offers of a catalog compound's head named with the whole compound (by the tool's name, or a schema field's
    path) take the compound as their resource."""
    for t in tools.values():
        t.offers = [
            dataclasses.replace(o, resource=r)
            if (r := _compound_resource(o.resource, o.path if o.source == "schema" else t.name, compounds))
            != o.resource
            else o
            for o in t.offers
        ]


READER_KINDS = {"list", "search", "get"}


def sole_contents(tools: dict[str, Tool]) -> None:
    """What a reader's description says its result includes ("a server including channels") is where that
    resource's instances come from when no reader of the catalog is about it (no channel list): the offer counts
    as the resource's own (primary), as a list's would. Creates do not count: the value to pass names an existing
    instance."""
    own = {o.resource for t in tools.values() if t.kind in READER_KINDS for o in t.offers if o.primary}
    for t in tools.values():
        t.offers = [
            dataclasses.replace(o, primary=True)
            if o.source == "description" and not o.primary and o.resource not in own
            else o
            for o in t.offers
        ]


def compound_wants(tools: dict[str, Tool], compounds: set[tuple[str, str]]) -> None:
    """Wants of a catalog compound's head whose parameter names the whole compound (`data_source_id`)."""
    for t in tools.values():
        for w in t.wants:
            if w.resources:
                w.resources[0] = _compound_resource(w.resources[0], w.parameter.rsplit(".", 1)[-1], compounds)


TYPE_CHOICE_WORDS = {"type", "types", "kind", "object"}  # an enum that chooses which things come back
TYPE_CHOICE_DEPTH = 2  # `filter.value`, `sources[].type`; not `scrapeOptions.actions[].type`
SEARCH_TYPE_NODES = 400  # schema nodes of a search's arguments read for the types it filters on
# "... when you only need to locate an element and its ref": a search that returns elements with their refs
_ITS_IDENTIFIER = re.compile(r"\b([a-z]+)\s+and\s+(?:its|their)\s+(ids?|refs?|reference|keys?|paths?|urls?|uris?)\b")
_TYPE_IS = re.compile(r"\btype\s*[=:]\s*[\"']?([a-z_]+)", re.I)  # CQL's `type=page`, `type:issue`


def search_type_offers(tools: dict[str, Tool], compounds: set[tuple[str, str]]) -> None:
    """A search without an output schema returns the types of thing it lets its caller filter on: the values of an
    enum among its arguments (`filter.value`: page, data_source) or a `type=` in its query's examples
    (`type=page AND space=DEV`), each a resource the server's identifier parameters name (`page_id`); and what its
    description says it finds with an identifier ("locate an element and its ref": element refs)."""
    nouns = _identifier_nouns(tools, compounds)
    for t in tools.values():
        if t.kind != "search" or any(o.source == "schema" for o in t.offers):
            continue
        have = {o.resource for o in t.offers}
        for thing, word in _ITS_IDENTIFIER.findall(t.description.lower()):
            key = parameter_resource([thing])
            if key and key not in have:
                t.offers.append(
                    Offer(t.name, key, LOCATOR_FIELDS.get(word, ID_FIELDS.get(word, "*")), "", True, "description")
                )
                have.add(key)
        _offer_filtered_types(t, nouns[server_of(t)], compounds, have)


def list_type_offers(tools: dict[str, Tool], compounds: set[tuple[str, str]]) -> None:
    """A listing without an output schema, its name naming no specific resource (`list`, `list_objects`), whose enum
    argument chooses the type of thing listed (`list(type: items, folders, org-members)`) lists each type the
    server's identifier parameters name (`memberId`), as a search does (search_type_offers). A named listing's type
    (`list_events(target_type)`) filters what its own things refer to."""
    nouns = _identifier_nouns(tools, compounds)
    for t in tools.values():
        if (
            t.kind != "list"
            or any(o.source == "schema" for o in t.offers)
            or _specific(resource_key(_object_words_of(t)))
        ):
            continue
        _offer_filtered_types(t, nouns[server_of(t)], compounds, {o.resource for o in t.offers})


def _offer_filtered_types(tool: Tool, ids: set[str], compounds: set[tuple[str, str]], have: set[str]) -> None:
    """Offer each type of thing the tool's type enums choose (_filter_values) that the server's identifier
    parameters name (`ids`), at CHOSEN."""
    for value in _filter_values(tool):
        key = _compound_key(words(value), compounds)
        if key and key in ids:
            _offer_chosen(tool, key, have)


TYPE_FILTER_WORDS = {"type", "types", "kind", "kinds", "model", "models"}  # `item_types`, `entityType`, `models`
_LISTED_VALUES = re.compile(r":\s*([a-z][\w-]*(?:\s*,\s*[a-z][\w-]*)+)", re.I)  # "types to search: deal,lead,person"


def typed_search_offers(tools: dict[str, Tool], compounds: set[tuple[str, str]]) -> None:
    """A search or listing across several types of thing (`item_search(item_types)`, `search_content(models)`,
    `get_collection_items(models)`) returns each type its type filter enumerates, when two or more of them are
    resources the server's identifier parameters name: a search whose own word is generic or no such resource
    (`content`, `item`), a listing whose own word is generic or absent (a named listing's type filters what its own
    things refer to: `list_events(target_type)`). The filter is a top-level argument named for a type
    (TYPE_FILTER_WORDS) whose enum (or its items' enum) or description ("types to search: deal,lead") lists them."""
    nouns = _identifier_nouns(tools, compounds)
    for t in tools.values():
        if t.kind not in ("search", "list"):
            continue
        ids = nouns[server_of(t)]
        own = resource_key(_object_words_of(t))
        if not _across_types(t, own, ids):
            continue
        for values in _type_filters(t):
            keys = {k for v in values if (k := _compound_key(words(v), compounds)) and k in ids and k != own}
            if len(keys) >= 2:
                have = {o.resource for o in t.offers}
                t.offers += [Offer(t.name, key, "*", ACROSS_TYPES, True, "description") for key in sorted(keys - have)]


def _across_types(tool: Tool, own: str | None, ids: set[str]) -> bool:
    """A search or listing that may return several types of thing: a listing whose own word is generic or absent
    (`get_collection_items`: items), a search whose own word is too or names no resource the server's identifier
    parameters name (`search_content`; not `search_invoices`)."""
    object_words = _object_words_of(tool)
    generic = own is None or own in GENERIC_RESOURCES or singular(object_words[-1]) in GENERIC_RESOURCES
    return tool.kind == "list" and generic or tool.kind == "search" and (generic or own not in ids)


def _type_filters(tool: Tool) -> list[list[str]]:
    """The values of each top-level argument named for a type of thing: its enum, its items' enum, or the comma list
    its description gives after a colon."""
    out: list[list[str]] = []
    props = (tool.input_schema or {}).get("properties")
    for name, node in (props if isinstance(props, dict) else {}).items():
        ws = words(str(name))
        if not isinstance(node, dict) or not ws or ws[-1] not in TYPE_FILTER_WORDS:
            continue
        items = node.get("items")
        enums = [n.get("enum") for n in (node, items) if isinstance(n, dict)]
        values = [v for enum in enums if isinstance(enum, list) for v in enum if isinstance(v, str)]
        if not values:
            said = _LISTED_VALUES.search(str(node.get("description") or ""))
            values = [v.strip() for v in said.group(1).split(",")] if said else []
        out.append(values)
    return out


def _object_words_of(tool: Tool) -> list[str]:
    """The words of what a name names after its verb (all of a verbless name's)."""
    verb, rest = name_verb_and_object(tool.name)
    return rest if verb else words(tool.name)


def _identifier_nouns(tools: dict[str, Tool], compounds: set[tuple[str, str]]) -> dict[str, set[str]]:
    """server -> the resources its identifier parameters name (`memberId` -> member)."""
    nouns: dict[str, set[str]] = defaultdict(set)
    for t in tools.values():
        for p in t.parameters:
            ws = words(str(p.get("name") or ""))
            if len(ws) >= 2 and ws[-1] in ID_FIELDS and (key := _compound_key(ws[:-1], compounds)):
                nouns[server_of(t)].add(key)
    return nouns


CHOSEN = "(a type it is asked for)"  # the path of a search's offer of a type its arguments choose
CHOSEN_PATHS = (CHOSEN, ACROSS_TYPES)  # offers of a type a search is asked for, or one of those it searches across


def _offer_chosen(tool: Tool, key: str, have: set[str]) -> None:
    """The search offers `key`, a type its arguments choose (its description's offer of it marked so): what it is
    asked for comes back, whatever else of that resource it takes as a scope (`search(searchType, boardIds?)`)."""
    tool.offers = [
        dataclasses.replace(o, path=CHOSEN) if o.resource == key and o.source == "description" else o
        for o in tool.offers
    ]
    if key not in have:
        tool.offers.append(Offer(tool.name, key, "*", CHOSEN, True, "description"))
        have.add(key)


def _filter_values(tool: Tool) -> list[str]:
    """The `type=` values its parameters' descriptions give, and the enum values of its arguments (at most
    TYPE_CHOICE_DEPTH properties deep: not an option of a nested action) that choose a type of thing (a property named
    or described with `type`, `kind` or `object`: `searchType`, `filter.value` "filter by type of object")."""
    out = [m for p in tool.parameters for m in _TYPE_IS.findall(str(p.get("description") or ""))]
    stack: list[tuple[str, int, object]] = [("", 0, tool.input_schema or {})]
    budget = SEARCH_TYPE_NODES
    while stack and budget > 0:
        key, depth, node = stack.pop()
        budget -= 1
        if isinstance(node, list):
            stack += [(key, depth, v) for v in node]
        if not isinstance(node, dict):
            continue
        out += _type_choices(key, node)
        props = node.get("properties")
        if isinstance(props, dict) and depth < TYPE_CHOICE_DEPTH:
            stack += [(str(name), depth + 1, child) for name, child in props.items()]
        stack += [(key, depth, node[k]) for k in ("items", "anyOf", "oneOf", "allOf") if k in node]
    return out


def _type_choices(key: str, node: dict) -> list[str]:
    """The values of an enum named or described with a type word, unless it chooses an operation."""
    said = set(words(key)) | set(words(str(node.get("description") or "")))
    if not isinstance(node.get("enum"), list) or not said & TYPE_CHOICE_WORDS or _chooses_operation(key):
        return []
    return [v for v in node["enum"] if isinstance(v, str)]


def _chooses_operation(key: str) -> bool:
    """An argument that chooses what a dispatch tool does (`queryEnv(action: list, info, domains)`, "operation
    type"): its values are operations, read by read_operations, not types of thing the tool returns."""
    return key.lower() in OPERATION_FIELDS


def _listed_contents(tool: Tool) -> set[str]:
    """What a listing of one thing without HTTP (`list_directory`: "a listing of all files and directories in a
    specified path") lists, as its description says: the contents of the thing its name gives."""
    verb, rest = name_verb_and_object(tool.name)
    content = [w for w in rest if w not in ("a", "an", "the")]
    if (
        tool.http
        or tool.kind != "list"
        or verb not in LIST_VERBS
        or not content
        or singular(content[-1]) != content[-1]
    ):
        return set()
    return {w for r in described_resources(tool.description)[:2] for w in r.split()}


def _resource_in_name(wanted: set[str], producer: Tool, said: str | None = None) -> bool:
    """The wanted resource's words are in the producer's name or path, the object a verb-only search describes, or what
    a listing of one thing lists; `said`, the word the parameter names its resource by, counts as the resource SYNONYMS
    made of it (see _said_word)."""
    named = _synonymous(_name_words(producer), said) | _described_object(producer)
    return bool(wanted) and (wanted <= named or wanted <= _listed_contents(producer))


def _said_word(want: Want) -> str | None:
    """The word a parameter names its resource by before SYNONYMS (`folder` of `folder_id`, `vm` of `vmid`, `repo`),
    when SYNONYMS turned it into another (`directory`, `instance`, `repository`): a name saying that word names the
    want's resource (`list_folders`, `list_vms`). Not another word of the same synonym (a `profile` is no `user`)."""
    named = words(want.parameter.rsplit(".", 1)[-1])
    ws = [w for w in named if w not in ID_FIELDS]
    if ws == named and len(ws) == 1:  # one word, an identifier perhaps glued to it
        ws = [_glue_head(ws[0])]
    said = singular(ws[-1]) if ws else None
    return said if said and want.resources and synonym(said) == want.resources[0] != said else None


def _synonymous(named: frozenset[str], said: str | None) -> frozenset[str]:
    """A name's words, and the resource SYNONYMS makes of the parameter's own word where the name says it (`folders`
    of `list_folders` for `folder_id`; `vms`, a plural `singular` keeps, for `vmid`)."""
    if not said:
        return named
    return named | {w for n in named if n in (said, said + "s") for w in synonym(n).split()}


def _no_path_readers(out: dict[str, Candidate], want: Want) -> dict[str, Candidate]:
    """For a path: not the readers of one thing that need a path themselves (`get_file_info(path)` reads a file or a
    directory; it lists none)."""
    if want.field != "path":
        return out
    return {
        n: c
        for n, c in out.items()
        if not (c.producer.kind == "get" and any(w.required and w.field == "path" for w in c.producer.wants))
    }


def tool_offers(tool: Tool) -> list[Offer]:
    offers = _schema_offers(tool)
    if tool.kind == "change":
        return offers
    has_schema = any(o.source == "schema" for o in offers)
    if not has_schema:  # what the name and description say it returns
        keys = _described_keys(tool)[:3]
        if aggregate := _aggregate_words(tool):  # a report on orders returns numbers about orders, not their ids
            keys = [k for k in keys if set(k.split()) & aggregate]
        for key in keys:
            offers.append(Offer(tool.name, key, "*", "", True, "description"))
            ws = key.split()
            if len(ws) > 1 and ws[-1] in ID_FIELDS:  # get_country_code serves country_code
                offers.append(
                    Offer(tool.name, resource_key(ws[:-1]) or ws[0], ID_FIELDS[ws[-1]], "", True, "description")
                )
        if tool.kind in ("get", "list"):  # "a server including channels": nested instances
            for key in [k for k in included_resources(tool.description) if k not in keys]:
                offers.append(Offer(tool.name, key, "*", "", False, "description"))
        for key in [k for k in _operations_listed(tool) if k not in keys]:  # what its caller asks for comes back
            offers.append(Offer(tool.name, key, "*", CHOSEN, True, "description"))
    return offers


AGGREGATE_WORDS = {"report", "stats", "statistics", "analytics", "summary", "metrics", "usage", "count", "totals"}
_AGGREGATE_KEYS = frozenset(singular(w) for w in AGGREGATE_WORDS)  # as resource keys spell them (`stat`, `total`)


def _aggregate_words(tool: Tool) -> set[str]:
    """The words of a name that says the tool reports, counts or sums a collection (`woo_reports_orders_totals`,
    `get_project_stats`, `count_issues`): what it returns are numbers about the items, not the items' ids; singular,
    as resource keys spell them."""
    return {singular(w) for w in words(tool.name)} & _AGGREGATE_KEYS


OPERATION_FIELDS = {"operation", "action", "method", "op"}
OPERATIONS_READ = 100  # operation names read from one tool's arguments


def _operations_listed(tool: Tool) -> list[str]:
    if tool.operations is None:
        tool.operations = read_operations(tool)
    return tool.operations


def read_operations(tool: Tool) -> list[str]:
    """What a tool that runs one of several operations, chosen by an argument (`operation: "get-teams"`), lists with
    its listing operations (`get-teams`, `list_projects`: a reading or listing verb and a plural object before any
    scope; not `list_mine`, `list_for_iteration`)."""
    out: list[str] = []
    for op in _operation_names(tool.input_schema or {}):
        verb, _ = name_verb_and_object(op)
        rest = _object_words(op)  # up to a scope: `list_for_iteration` lists nothing it names
        if rest and (verb in LIST_VERBS or verb in GET_VERBS) and singular(rest[-1]) != rest[-1]:
            key = resource_key([singular(w) for w in rest])
            if key and key not in out:
                out.append(key)
    return out


def _operation_names(root: dict) -> list[str]:
    """The values of an argument that chooses an operation (OPERATION_FIELDS): a `const` in each alternative of the
    input, inline or behind a local `$ref`, or the `enum` of a required one (an optional one filters: the `action`
    of audit events); at most OPERATIONS_READ, each schema node read once."""
    names: list[str] = []
    stack: list[tuple[object, int]] = [(root, 0)]
    read: set[int] = set()
    while stack and len(names) < OPERATIONS_READ:
        node, depth = stack.pop()
        if isinstance(node, list):
            stack += [(n, depth) for n in node]
        if not isinstance(node, dict) or depth > NESTED_DEPTH + 2 or id(node) in read:
            continue
        read.add(id(node))
        if isinstance(node.get("$ref"), str):
            stack.append((_local_pointer(root, node["$ref"]), depth + 1))
        required = node["required"] if isinstance(node.get("required"), list) else []
        for name, prop in _dict(node.get("properties")).items():
            if name in OPERATION_FIELDS:
                values = _dict(prop).get("enum")
                values = [*values] if isinstance(values, list) and name in required else []
                names += [v for v in [*values, _dict(prop).get("const")] if isinstance(v, str)]
            stack.append((prop, depth + 1))
        stack += [(node[k], depth + 1) for k in ("items", *UNION_KEYS) if k in node]
    return names[:OPERATIONS_READ]


def _described_keys(tool: Tool) -> list[str]:
    """The resources a tool without an output schema returns, by its name and description."""
    verb, rest = name_verb_and_object(tool.name)
    named = _named_key(rest) if verb else _verbless_named(tool)
    keys = ([named] if named else []) + [r for r in described_resources(tool.description) if r != named]
    if tool.kind == "search":  # what its query is compared against ("page and database titles", "across all files")
        for text in [tool.description] + [str(p.get("description") or "") for p in tool.parameters]:
            keys += [r for r in searched_resources(text) if r not in keys]
    if not keys and verb and rest and singular(rest[-1]) != rest[-1]:
        keys = [parameter_resource(rest[-1:]) or ""]  # nothing but a generic plural (`get_all_items`): items
    generic = _generic_listed(verb, rest)
    if generic and generic not in keys:
        keys.insert(1, generic)
    return [k for k in keys if k]


SCOPE_CUTS = {"by", "for", "from", "in", "of", "with", "on", "at", "under", "within"}  # NAME_CUTS and places


def _named_key(rest: list[str]) -> str | None:
    """The resource a name's words after its verb name; a name that ends with `users` lists users
    (`get_project_users`: not a project), though the word is too common in descriptions to name one there (STOP)."""
    return "user" if rest and rest[-1] == "users" else resource_key(rest)


def _generic_listed(verb: str | None, rest: list[str]) -> str | None:
    """A name whose object is a generic plural before its scope (`get-items-on-board`, `get-group-items`,
    `list_objects_in_bucket`) lists instances of that generic resource (an `itemId` takes one of them), though its
    resource key names the scope or qualifier (board, group)."""
    if not verb or verb in CREATE_VERBS:
        return None
    head = rest[: next((i for i, w in enumerate(rest) if w in SCOPE_CUTS), len(rest))]
    if len(head) < 1 or singular(head[-1]) == head[-1] or singular(head[-1]) not in GENERIC_RESOURCES:
        return None
    return singular(head[-1])


def _verbless_named(tool: Tool) -> str | None:
    """A name without a verb (`my_issues`) whose description opens with one and the name's last noun ("List issues
    assigned to the authenticated user"): that noun, as a name with the verb would give it (ninth session)."""
    verb, rest = name_verb_and_object(_first_sentence(tool))
    last = words(tool.name)[-1:]
    if not verb or not rest or not last or singular(rest[0]) != singular(last[0]):
        return None
    return resource_key(rest[:1])


def _schema_offers(tool: Tool) -> list[Offer]:
    """The identifying fields of the output schema; a token at its top (`session_token` of a submitted login) is
    what the call hands out (a primary offer, the only one a change makes)."""
    offers = schema_offers(tool.name, tool.output_schema, root=_root_resource(tool)) if tool.output_schema else []
    offers += [named for o in offers if (named := _named_by_path(tool, o))]
    offers += [named for o in offers if (named := _named_by_envelope(o))]
    offers += [named for o in offers if (named := _named_by_list(tool, o, offers))]
    offers += [named for o in offers if (named := _named_by_composed_title(tool, o))]
    offers = _identifier_offers(tool, offers) + _listed_names(tool)
    return [
        Offer(o.tool, o.resource, o.field, o.path, True, o.source) if _handed_out(o) else o
        for o in offers
        if tool.kind != "change" or _handed_out(o)
    ]


GENERIC_RESOURCES = {"resource", "item", "object", "entity", "record"}


def _listed_names(tool: Tool) -> list[Offer]:
    """A list whose output is an array of strings (`GET /regions` -> `["global", "eu"]`) lists the names of the
    things its path or name is about: each is a name of one, or the identifier its name says (`GET /feature-keys`:
    feature keys, `listed`: see idlists.py; the names guessed are not marked, they may be emails)."""
    schema = tool.output_schema or {}
    items = schema.get("items") if schema.get("type") == "array" else None
    if tool.kind != "list" or not isinstance(items, dict) or items.get("type") != "string" or items.get("enum"):
        return []
    root, named = _root_resource(tool), _listed_by_name(tool)
    field = named[1] if named else "name"
    return [Offer(tool.name, root, field, "[]", True, "schema", listed=named is not None)] if root else []


def _identifier_offers(tool: Tool, offers: list[Offer]) -> list[Offer]:
    """The offers of a reader whose output lists nothing but identifiers (idlists.py) and whose name says which
    (`GET /v1/crate-names`: `{crates: [{id, name}]}`) marked `listed`; an array named `<resource> <identifiers>`
    (`result.shard_keys[]` of `{key}` objects) offers them as that resource's instead of what its items' schema title
    says (`ShardKeyDescription`). A list of `{id}` not so named (`GET /crates`: `{data: [{id}]}`) is a listing like
    any other. A top-level array of strings: _listed_names."""
    found = identifier_list(tool.output_schema) if tool.kind in READER_KINDS else None
    if found is None or not found.fields:
        return offers
    inside = [o for o in offers if o.source == "schema" and o.path.startswith(found.path)]
    named = listed_identifier(words(found.holder)) if found.holder else None
    if named is None:
        by_name = _listed_by_name(tool) is not None
        return [dataclasses.replace(o, listed=True) if by_name and o in inside else o for o in offers]
    resource, field = named
    own = [
        Offer(tool.name, resource, identifier_field(f) or "id", f"{found.path}.{f}", True, "schema", listed=True)
        for f in found.fields
    ]
    return [o for o in offers if o not in inside] + own


def _listed_by_name(tool: Tool) -> tuple[str, str] | None:
    """(resource, field) a reader's collection names by a plural identifier word (`GET /v1/feature-keys`: feature,
    key), when its whole output is a list of identifiers (idlists.py); else None."""
    found = identifier_list(tool.output_schema) if tool.output_schema else None
    if found is None or found.path != "[]" and not _names_its_items(found):
        return None
    ws = _collection_words(tool) if tool.http else _name_object_words(tool)
    return listed_identifier([w.lower() for w in ws])


def _names_its_items(found: IdList) -> bool:
    """An envelope whose array is named after the items' resource (`{experiments: [{id, name}]}`), not after the
    identifiers (`shard_keys`): the collection's name says which identifiers are listed."""
    return bool(found.holder) and listed_identifier(words(found.holder)) is None


def _root_resource(tool: Tool) -> str | None:
    """What a reader whose output schema has no title is about: the collection its path names (`GET
    /projects/{id}/users` -> user), else what its name names (`getCycles`, `getCycleById` -> cycle). MCP's
    structured output is an object, so a list comes wrapped (`{"items": [...]}`) with nothing else to name it. A
    list of identifiers named by them (`GET /v1/experiment-names`) is about the resource before them."""
    if tool.kind not in ("list", "get", "search"):
        return None
    if rpc_call(tool):  # POST /collections.list
        return _specific(rpc_resource(tool))
    if listed := _listed_by_name(tool):
        return _specific(listed[0])
    ws = _collection_words(tool) if tool.http else _name_object_words(tool)
    # a path's or a name's noun names the resource even where it is noise in a schema title (`GET /collections`)
    return _specific(parameter_resource([singular(w) for w in ws]) if ws else None)


def _collection_words(tool: Tool) -> list[str]:
    """The words of the collection an HTTP path names (`/users`, `/users/{id}`), none for an action (`/points/scroll`)."""
    parts = [s for s in _path(tool).split("/") if s]
    static = [i for i, s in enumerate(parts) if not s.startswith("{")]
    ws = words(parts[static[-1]]) if static else []
    return [] if ws and singular(ws[-1]) == ws[-1] and static[-1] == len(parts) - 1 else ws


def _name_object_words(tool: Tool) -> list[str]:
    return list(_object_words(tool.name))


def _object_words(name: str) -> tuple[str, ...]:
    """The words of what a name names after its verb, up to a cut (`getCycleById` -> cycle); none without a verb."""
    return _object_words_in(function_name(name), current_prefix())


@lru_cache(maxsize=65536)  # `prefix`, the catalog's prefix words name_verb_and_object reads, keys the cache only
def _object_words_in(name: str, prefix: frozenset[str]) -> tuple[str, ...]:
    verb, ws = name_verb_and_object(name)
    ws = ws if verb else []
    return tuple(ws[: next((i for i, w in enumerate(ws) if w in NAME_CUTS), len(ws))])


def _specific(named: str | None) -> str | None:
    """A resource worth naming: three letters or more and not a generic one (`resource`, `item`)."""
    return named if named and len(named) > 2 and named not in GENERIC_RESOURCES else None


def _named_by_path(tool: Tool, o: Offer) -> Offer | None:
    """An offer of a generic schema (JSON:API's `resources_list`: `data[].id` of a "resource") is also one of the
    collection the operation's path names (`GET /variants` -> variant; a segment of one or two letters, `/b/{}/o`,
    names none)."""
    static = [s for s in _path(tool).split("/") if s and not s.startswith("{")]
    if o.resource not in GENERIC_RESOURCES or not static:
        return None
    named = resource_key([singular(w) for w in words(static[-1])])
    return dataclasses.replace(o, resource=named) if named and len(named) > 2 and named != o.resource else None


_ITEM_FIELD = re.compile(r"^(?:[A-Za-z][\w-]*)?\[\]\.[A-Za-z][\w-]*$")  # `[].Name`, `accounts[].slug`


def _named_by_list(tool: Tool, o: Offer, offers: list[Offer]) -> Offer | None:
    """A list's own items' identifier (`[].Name`, `accounts[].slug`) whose schema title calls them otherwise than
    the collection the list's path or name lists (`GET /jobs` -> `JobListStub[]`, `GET /accounts` ->
    `AccountMembership[]`): also that collection's, since its parameters use the collection's word (`jobName`,
    `account_slug`). Only the items' top-level fields, not a nested object's or a foreign key; only a collection at
    the top of its API (no instance in its path: `/clients/{id}/roles` lists a client's), and none of whose primary
    offers already names it (a nested summary's `JobID` does not). Only when the output holds one such list: beside
    another (JSON:API's `data` and `included`) which one holds the members is not known."""
    if tool.kind != "list" or o.source != "schema" or not o.primary or o.reference or not _ITEM_FIELD.match(o.path):
        return None
    if len({x.path.split("[]", 1)[0] for x in offers if x.primary and _ITEM_FIELD.match(x.path)}) > 1:
        return None
    root = _root_resource(tool)
    if not root or "{" in _path(tool) or any(x.primary and root in x.resource.split() for x in offers):
        return None
    return dataclasses.replace(o, resource=root)


def _named_by_composed_title(tool: Tool, o: Offer) -> Offer | None:
    """A list under a parent's instance whose items' schema title composes the collection its path names with that
    parent's name (`GET /…/draft-payment/{id}/note-attachment` -> `NoteAttachmentDraftPaymentListing[]`, read as a
    payment): its items' identifier is also the path's collection's (a note attachment), the title's first words
    being the path's last segment's and the title read as the parent the path puts before it, or a word of its name
    (`ScheduleRequestBatch…` -> schedule; twenty-sixth session, "the list at the consumer's own path"). Not a title
    with a format word after the collection's name (`ClientRepresentation`), nor a list under no instance
    (`/jobs/export` -> `ExportJobModel`)."""
    if tool.kind != "list" or o.source != "schema" or not o.primary or o.reference or not _ITEM_FIELD.match(o.path):
        return None
    parts = [s for s in _path(tool).split("/") if s]
    title = _items_title(tool.output_schema, o.path.split("[]", 1)[0])
    if len(parts) < 3 or not title or "{" in parts[-1] + parts[-3] or not parts[-2].startswith("{"):
        return None
    segment, composed = _singular_words(parts[-1]), _singular_words(title)
    if len(composed) <= len(segment) or composed[: len(segment)] != segment or not _names_parent(o, parts[-3]):
        return None
    named = _specific(parameter_resource(segment))
    return dataclasses.replace(o, resource=named) if named and named != o.resource else None


def _names_parent(o: Offer, segment: str) -> bool:
    """The offer's resource is what a parent's path segment names, or words of it."""
    parent = _singular_words(segment)
    return set(o.resource.split()) <= {*parent, parameter_resource(parent)}


def _singular_words(text: str) -> list[str]:
    return [singular(w) for w in words(text)]


def _items_title(schema: dict | None, holder: str) -> str | None:
    """The schema title of a list's items: a top-level array's (`holder` ''), else its member `holder`'s."""
    node = (schema or {}).get("properties", {}).get(holder) if holder else schema
    items = node.get("items") if isinstance(node, dict) and node.get("type") == "array" else None
    title = items.get("title") if isinstance(items, dict) else None
    return title if isinstance(title, str) else None


_ENVELOPE_MEMBER = re.compile(r"^([A-Za-z][\w-]*)((?:\[\])*)\.([A-Za-z]+)$")


def _named_by_envelope(o: Offer) -> Offer | None:
    """The own identifier of the object(s) a response's top-level member holds (`{ok, channels: [...]}`, `{ok,
    channel: {...}}`) is also one of what that member's name names, when the object's schema title calls it
    otherwise (`channels[].id` of a "Conversation object"): the API's parameters use the envelope's word (`channel`)."""
    m = _ENVELOPE_MEMBER.match(o.path)
    if (
        m is None
        or o.source != "schema"
        or o.reference
        or not o.primary
        or o.field not in STRONG_FIELDS
        or ID_FIELDS.get(m.group(3).lower()) != o.field
    ):
        return None  # not a `name`: one there may be another thing's (`properties[].name` of an index list)
    named = _specific(resource_key(words(m.group(1))))
    return dataclasses.replace(o, resource=named) if named and named != o.resource else None


def _handed_out(o: Offer) -> bool:
    """A token field at the top of an output schema."""
    return o.source == "schema" and o.field == "token" and "." not in o.path and "[" not in o.path


@dataclass
class Match:
    producer: Tool
    offer: Offer
    want: Want
    score: float
    exact_field: bool
    note: str = ""  # why a rule kept this producer, appended to the reason


def standalone_score(producer: Tool, offer: Offer) -> float:
    """What a producer's offer is worth before knowing the consumer (for ordering candidates)."""
    s = KIND_WEIGHT.get(producer.kind, 0.5) * (1.0 if offer.primary else NESTED) * (0.5 if offer.reference else 1.0)
    return s * (DESCRIBED if offer.source == "description" else 1.0) * (DEPRECATED if producer.deprecated else 1.0)


def score(consumer: Tool, want: Want, producer: Tool, offer: Offer) -> tuple[float, bool] | None:
    if one_operation(producer.name, consumer.name):
        return None
    exact = offer.field == want.field and offer.field != "*"
    if want.field == "*" and offer.source != "schema" and not want.rare:
        return None  # a bare noun most tools take (`repo`, `owner`) is context a person gives, not a lookup
    if not exact and offer.source == "schema" and want.field != "*" and offer.field != "*":
        # a different identifier of the same resource (uri for an id) still names it, less surely
        if not {offer.field, want.field} <= {"id", "uri", "key", "number", "sha", "slug", "code"}:
            return None
    if offer.listed and not exact and want.field != "*":
        return None  # a list of nothing but shard keys holds no shard id (idlists.py)
    if _copied_name(producer, offer) or is_lookup(producer, want) or _described_scope(producer, want, offer):
        return None
    if _reads_one_it_is_given(producer, want, offer) or _gets_one_by_optional_ids(producer, want):
        return None
    if _echoed(producer, want, offer):
        return None
    return min(_rule_score(consumer, want, producer, offer, exact), 0.99), exact


def _objects_from_strings(consumer: Tool, want: Want, offer: Offer) -> bool:
    """A parameter declared an array of objects (Kestra's `filters: [{field, operation, value}]`) is not filled by
    the bare items of a list of strings (`GET /pebble/filters` -> `[]`, the names of template filters): the spec's
    item types disagree (twenty-fourth session, a first contact with unseen specs)."""
    if want.nested or offer.source != "schema" or not offer.path.endswith("[]"):
        return False
    schema = ((consumer.input_schema or {}).get("properties") or {}).get(want.parameter)
    items = schema.get("items") if isinstance(schema, dict) and schema.get("type") == "array" else None
    return isinstance(items, dict) and (items.get("type") == "object" or "properties" in items)


def _copied_name(producer: Tool, offer: Offer) -> bool:
    """`metric_alarms[].metric_name` beside the alarm's own `name`: another object's copy of a name, no source of
    it (a `file_name` of directory entries without a name of their own is theirs)."""
    if not (offer.reference and offer.field == "name"):
        return False
    parent = offer.path.rpartition(".")[0]
    return any(o.field == "name" and not o.reference and o.path.rpartition(".")[0] == parent for o in producer.offers)


def _echoed(producer: Tool, want: Want, offer: Offer) -> bool:
    """A `<noun>Id` at the top of an output (`GetCrateScale` -> `{CrateID, …}`) of a tool whose path takes that
    thing (`/crates/{crateName}/scale`, by any field) echoes the instance it was given: no source of it; a path that
    ends at the thing (`/crates/by-name/{crateName}`) answers the thing itself, its own id."""
    if offer.source != "schema" or len(words(offer.path)) < 2 or "." in offer.path or "[" in offer.path:
        return False
    key, path = set(want.resources[:1]), _path(producer).rstrip("/")
    return any(
        w.required and w.in_path and key & set(w.resources[:1]) and not path.endswith(f"{{{w.parameter}}}")
        for w in producer.wants
    )


def is_lookup(producer: Tool, want: Want) -> bool:
    """The producer needs an instance of the wanted resource itself (a lookup, not a provider), unless it lists
    that resource's own kind under it (sub-things, children)."""
    return looks_up(producer, want) and not lists_kin(producer, want)


def _described_scope(producer: Tool, want: Want, offer: Offer) -> bool:
    """A reader found by its description that the wanted resource scopes: a search "in one or all indexes" that
    takes an index returns documents; "Get all labels of a specific board" (boardId?) returns labels."""
    if offer.source != "description" or offer.path in CHOSEN_PATHS:
        return False
    if producer.kind == "search" and looks_up(producer, want, optional=True):
        named = _name_resources(producer.name) or {_noun_before_verb(producer.name, "search")}
        if not named & {*want.resources[:1]}:
            return True
    return _scoped_by(producer, want) or _gets_one_by(producer, want)


def looks_up(producer: Tool, want: Want, *, optional: bool = False) -> bool:
    """The producer itself needs an instance of the wanted resource (it looks one up, it does not provide one);
    with `optional`, takes one even when it may go without."""
    return any(
        (w.required or optional)
        and set(_addressed(producer, w)) & set(want.resources[:1])
        and w.field in (want.field, "id", "uri", "*")
        for w in producer.wants
    )


def _addressed(producer: Tool, w: Want) -> list[str]:
    """The resources a want of the producer names; a path parameter a static segment follows
    (`/whiteboards/{id}/properties`) addresses the parent, not the things the producer lists: the words read for a
    bare `{id}` from its description ("The ID of the whiteboard for which content properties …") less the
    resource of its listed items' own key (`results[].id`: property; not `results[].blogPostId`, not the `customer.id`
    of `POST /customers/{id}/addresses`) (twenty-sixth session, a second first contact with unseen specs)."""
    segments = _path(producer).rstrip("/").split("/")
    marker = f"{{{w.parameter}}}"
    if not (w.in_path and marker in segments[:-1]) or segments[segments.index(marker) + 1].startswith("{"):
        return w.resources
    listed = {
        o.resource
        for o in producer.offers
        if o.primary and "[]" in o.path and re.split(r"[.\]]", o.path)[-1] == o.field
    }
    return [r for r in w.resources if r not in listed] or w.resources


KIN_WORDS = {"child", "children", "descendant", "descendants"}  # `get_block_children(block_id)` lists blocks


def lists_kin(producer: Tool, want: Want) -> bool:
    """A reader of the wanted resource's own kind under one it is given: its sub-things (`get_subtasks(task_id)`
    lists tasks, `list_subgroups(group_id)` groups) or its children (`get_block_children(block_id)`: blocks). The
    name's word is read as `resource_in_name` reads it: the parameter's own word before SYNONYMS is the resource it
    names (`list_sub_folders(parent_folder_id)` lists the directories a `folder_id` wants)."""
    if producer.kind not in ("list", "get", "search") or not want.resources:
        return False
    wanted = want.resources[0]
    said = _said_word(want)
    ws = [_said_as(singular(w), said, wanted) for w in _object_words(producer.name)]
    pairs = list(zip(ws, [*ws[1:], ""]))
    if any(w == f"sub{wanted}" or (w, b) == ("sub", wanted) or w == wanted and b in KIN_WORDS for w, b in pairs):
        return True
    return producer.kind == "list" and ws == [wanted] and _lists_inside_one(producer, wanted)


def _lists_inside_one(producer: Tool, wanted: str) -> bool:
    """A list named by nothing but the plural of the resource it takes one of (`list_compartments(compartment_id)`
    "in a given compartment", `listSpaces(space_ref)`): the ones inside it, a tree's level; not a list of several
    it is given (`ids`: the same ones back)."""
    named = _object_words(producer.name)
    if len(named) != 1 or singular(named[0]) == named[0]:
        return False
    taken = {w.parameter for w in producer.wants if wanted in w.resources}
    return not any(p.get("type") == "array" for p in producer.parameters if p.get("name") in taken)


def _said_as(word: str, said: str | None, wanted: str) -> str:
    """A name's word, the parameter's own word before SYNONYMS (`folder`, `vms`, glued after `sub`) read as the
    resource it names (see _said_word)."""
    if said and word in (said, said + "s"):
        return wanted
    if said and word in (f"sub{said}", f"sub{said}s"):
        return f"sub{wanted}"
    return word


def _scoped_by(producer: Tool, want: Want) -> bool:
    """A reader or search without an output schema that takes an instance of the wanted resource (even optionally) and
    whose name is about another resource (`search_tags_in_basket(basketId?)`): what its description or name says of
    the wanted one is its scope, not its result."""
    if (
        producer.kind not in ("list", "get", "search")
        or producer.output_schema
        or not looks_up(producer, want, optional=True)
        or _filters_by_many(producer, want)
    ):
        return False
    named = _name_resources(producer.name)
    return bool(named) and not named & {*want.resources[:1]} and not lists_kin(producer, want)


def _filters_by_many(producer: Tool, want: Want) -> bool:
    """A reader that may take a list of the wanted resource's ids (`itemIds?`, an optional array) and none of them
    required filters the ones it lists by them: they are its result, not its scope."""
    key = want.resources[0] if want.resources else None
    arrays = {str(p.get("name")) for p in producer.parameters if p.get("type") == "array" and not p.get("required")}
    mine = [w for w in producer.wants if key in w.resources and w.field in ("id", "*")]
    return bool(mine) and all(w.parameter in arrays and not w.required for w in mine)


def _gets_one_by(producer: Tool, want: Want) -> bool:
    """A getter without an output schema whose every parameter identifies an instance of the wanted resource
    (`get_source(uid?, name?)`: "by uid or name", one of them in practice) reads one it is given."""
    return producer.kind == "get" and not producer.output_schema and _identified_by(producer, want)


def _gets_one_by_optional_ids(producer: Tool, want: Want) -> bool:
    """A getter whose every parameter is an optional identifier, one at least of the wanted resource
    (`get_folder(folder_id?, folder_name?)` "by ID or display name", `get_asset(asset_id?, asset_name?, folder_id?)`:
    one of them in practice), reads the one it is given, output schema or not; `is_lookup` misses it, since no
    identifier is required."""
    names = {str(p.get("name")) for p in producer.parameters}
    return (
        producer.kind == "get"
        and not any(p.get("required") for p in producer.parameters)
        and names == {w.parameter for w in producer.wants}
        and not any(w.required for w in producer.wants)
        and looks_up(producer, want, optional=True)
        and not lists_kin(producer, want)
    )


def _reads_one_it_is_given(producer: Tool, want: Want, offer: Offer | None = None) -> bool:
    """A reader whose output schema holds one instance of the wanted resource (`offer`), not a list of them, and
    whose every parameter identifies one, even optionally (`GET /api/Chapter?chapterId=` -> a ChapterDto: ASP.NET
    specs mark no query parameter required, and a path without `{id}` reads as a listing) reads the one it is
    given; without an offer, the output is one object holding the resource's own id at its top (`id`, `chapterId`):
    a generic object, an optional list or a paging envelope is no evidence of one."""
    if offer is None:
        one = _holds_own_id(producer.output_schema, want)
    else:
        one = offer.source == "schema" and "[" not in offer.path
    return producer.kind in ("get", "list") and one and _identified_by(producer, want)


def _holds_own_id(schema: object, want: Want) -> bool:
    """An output object (its `allOf` members' properties too) with the wanted resource's identifier at its top: `id`,
    the resource's words and `id` (`crateBoxId` for a crate box), or the wanted parameter's own spelling (`crateBoxId`
    read as a box's id)."""
    if not isinstance(schema, dict) or not want.resources or _lists(schema):
        return False
    props = dict(_dict(schema.get("properties")))
    members = schema.get("allOf")
    for member in members if isinstance(members, list) else []:
        props.update(_dict(_dict(member).get("properties")))
    spelt = [singular(w) for w in words(want.parameter.rsplit(".", 1)[-1])]
    own = (["id"], [*want.resources[0].split(), "id"], spelt)
    return any([singular(w) for w in words(str(name))] in own for name in props)


def _identified_by(producer: Tool, want: Want) -> bool:
    """Every parameter the producer wants identifies an instance of the wanted resource (one at least)."""
    return (
        bool(producer.wants)
        and all(set(w.resources[:1]) & set(want.resources[:1]) for w in producer.wants)
        and looks_up(producer, want, optional=True)
    )


def _name_resources(name: str) -> frozenset[str]:
    """The resources a tool's name names after its verb, up to a cut (`get_board_labels`, `get_labels_for_board` ->
    label; `list_users_and_teams` -> user, team), none without a verb."""
    return _name_resources_in(function_name(name), current_prefix())


@lru_cache(maxsize=65536)  # `prefix` keys the cache only (see _object_words_in)
def _name_resources_in(name: str, prefix: frozenset[str]) -> frozenset[str]:
    parts = [list(g) for joint, g in groupby(_object_words(name), lambda w: w == "and") if not joint]
    if len(parts) == 1:
        return frozenset(key for key in [_named_key(parts[0])] if key)
    # each of two things named: as a parameter names it (`users` is too common a word to name a resource alone)
    return frozenset(key for part in parts if (key := parameter_resource([singular(w) for w in part])))


def _rule_score(consumer: Tool, want: Want, producer: Tool, offer: Offer, exact: bool) -> float:
    """The hand rules' worth of a producer for one parameter (see the weights at the top)."""
    s = (SCHEMA_MATCH if exact else ANY_FIELD_MATCH) * KIND_WEIGHT.get(producer.kind, 0.5)
    if not offer.primary:
        s *= NESTED
    if offer.source == "description":
        s *= DESCRIBED
    own = {w.parameter for w in consumer.wants}  # values the consumer has anyway (owner, repo ...) cost nothing
    steps = sum(1 for w in producer.wants if w.required and w.parameter not in own)
    s *= STEP_COST**steps
    if producer.deprecated:
        s *= DEPRECATED
    if own_list_for(consumer, want, producer):
        s *= OWN_RESOURCES
    return s


OTHERS_VERBS = {"follow", "subscribe", "star", "join", "watch"}  # done to someone else's things


def own_list_for(consumer: Tool, want: Want, producer: Tool) -> bool:
    """The producer lists the current user's own instances of a resource that the consumer changes."""
    verb, _ = name_verb_and_object(consumer.name)
    return (
        producer.own
        and want.in_path
        and consumer.kind in ("change", "create")
        and producer.kind in ("list", "search")
        and verb not in OTHERS_VERBS
        and not _starts_with(consumer.name, OTHERS_VERBS)
    )


MEMBERSHIP_SEGMENTS = {"contains"}  # GET /me/tracks/contains checks the collection /me/tracks


def _norm_path(path: str) -> str:
    return "/".join("{}" if seg.startswith("{") else seg for seg in path.rstrip("/").split("/"))


def collection_path(consumer: Tool, want: Want) -> str | None:
    """The collection a parameter's value lives in, by the consumer's HTTP path: the path before `/{param}`
    for a path parameter (/contacts/{contact_id}/segments/{segment_id} -> /contacts/{}/segments), else the
    path itself (DELETE /me/tracks?ids=), without a membership check's last segment (/me/tracks/contains); none for
    a header (IONOS's `X-Contract-Number` on every call: the path addresses no value of it)."""
    path = (consumer.http or {}).get("path")
    if not path or _in_header(consumer, want.parameter):
        return None
    segments = path.rstrip("/").split("/")
    if want.in_path:
        marker = f"{{{want.parameter}}}"
        if marker not in segments:
            return None
        segments = segments[: segments.index(marker)]
    elif segments[-1] in MEMBERSHIP_SEGMENTS:
        segments = segments[:-1]
    return _norm_path("/".join(segments))


def _in_header(consumer: Tool, parameter: str) -> bool:
    """The consumer sends the parameter as an HTTP header (OpenAPI `in: header`)."""
    return any(p.get("name") == parameter and p.get("in") == "header" for p in consumer.parameters)


def adds_to_collection(consumer: Tool, want: Want) -> bool:
    """The consumer adds the value to the collection it lives in (PUT|POST to it, not POST /emails/{id}/cancel)
    or checks membership (/me/tracks/contains): that collection's list is where the value is NOT taken from."""
    path = _path(consumer)
    last = not want.in_path or path.rstrip("/").endswith(f"{{{want.parameter}}}")
    return _method(consumer) in ("PUT", "POST") and last or path.rstrip("/").endswith("/contains")


def narrow(consumer: Tool, want: Want, matches: dict[str, Match]) -> dict[str, Match]:
    """Rules that pick among the producers of one parameter, each for a reason a person can check."""
    matches = _prefer(matches, lambda m: not m.offer.reference)  # foreign keys only when nothing else
    if NESTED_ONLY_AS_FALLBACK:
        matches = _prefer(matches, lambda m: m.offer.primary)
    # A deprecated producer only when nothing current provides the value (its twin replaces it); a deprecated
    # consumer may keep its deprecated twins.
    if not consumer.deprecated:
        matches = _prefer(matches, lambda m: not m.producer.deprecated)
    # A change to a resource addressed in its path (/playlists/{playlist_id}/items) is made to one of the
    # user's own (/me/playlists); following, subscribing or joining is done to someone else's.
    own = {k for k, m in matches.items() if own_list_for(consumer, want, m.producer)}
    if own:
        for k in own:
            matches[k].note = " (the user's own, which a change addresses)"
        matches = {k: m for k, m in matches.items() if k in own}
    return _same_collection(consumer, want, _unscoped_lists(consumer, matches), readers=not own)


def _unscoped_lists(consumer: Tool, matches: dict[str, Match]) -> dict[str, Match]:
    """A list of the resource within the consumer's own scope, needing only identifiers the consumer has
    (`/organizations/{org}/projects` for `/projects/{org}/{project}`), over lists that need one more
    (`/teams/{org}/{team}/projects`: a team's part of it)."""
    have = {w.parameter for w in consumer.wants}
    needs = {k: {w.parameter for w in m.producer.wants if w.required} for k, m in matches.items()}
    lists = {k for k, m in matches.items() if m.producer.kind in ("list", "search")}
    if not any(needs[k] and needs[k] <= have for k in lists):
        return matches
    return {k: m for k, m in matches.items() if k not in lists or needs[k] <= have}


def _prefer(matches: dict[str, Match], keep: Callable[[Match], object]) -> dict[str, Match]:
    """The matches `keep` accepts, when there are any; else all of them."""
    kept = {k: m for k, m in matches.items() if keep(m)}
    return kept or matches


def _same_collection(consumer: Tool, want: Want, matches: dict[str, Match], readers: bool = True) -> dict[str, Match]:
    """The same collection (RESTler's producer of a path): GET /emails lists what GET|PATCH|DELETE
    /emails/{email_id} and DELETE /me/tracks?ids= address, so only its list is kept -- with the searches of the same
    things and the caller's own list of them (`other_readers`), unless `readers` is off (the user's own list was
    chosen) or the call removes what it names from that collection; PUT|POST add to it, so its list is where the
    value is NOT taken from (saving a track that is already saved, pinning a message already pinned)."""
    collection = collection_path(consumer, want)
    if not collection:
        return matches
    same = {k for k, m in matches.items() if _lists_collection(m.producer, collection)}
    if same and adds_to_collection(consumer, want):
        return {k: m for k, m in matches.items() if k not in same}
    if same:
        method = _method(consumer)
        verb = "removes from" if method == "DELETE" else "addresses"
        for k in same:
            matches[k].note = f" (the list of the collection {method} {_path(consumer)} {verb})"
        if readers and not (method == "DELETE" and not want.in_path):  # what it removes is in that collection
            same |= {k for k, m in matches.items() if other_reader(m) or _scoped_list(m, collection)}
        return {k: m for k, m in matches.items() if k in same}
    return matches


def other_reader(m: Match) -> bool:
    """Another reader of the same things that needs nothing first: a search of them (`GET /repos/issues/search`
    beside `GET /repos/{owner}/{repo}/issues`, `GET /api/v2/search`) or the caller's own list of them (`GET
    /user/orgs` beside `GET /orgs`); the thing itself, not one nested in what it returns."""
    producer, offer = m.producer, m.offer
    own_list = producer.kind == "list" and _callers_own(producer) and _lists(producer.output_schema or {})
    return (
        (producer.kind == "search" or own_list)
        and offer.primary
        and not offer.reference
        and not any(w.required for w in producer.wants)
    )


def _scoped_list(m: Match, collection: str) -> bool:
    """A GET of a collection of the same name inside another resource's instance (`/customers/{}/subscriptions`
    beside `/subscriptions`): a part of the same things, read as the collection's list is (fourteenth session); its
    items' own identifier (`[].id`), not a `conversation_sid` of a membership, and not a list under a static
    qualifier (`/recycleBin/repositories`, `/admin/projects`)."""
    path = _norm_path(_path(m.producer))
    end = "/{}/" + collection.rsplit("/", 1)[-1]
    return (
        _method(m.producer) == "GET"
        and path != collection
        and path.endswith(end)
        and m.offer.primary
        and not m.offer.reference
        and len(words(m.offer.path.rsplit(".", 1)[-1])) == 1  # `[].id`, not `conversations[].conversation_sid`
    )


OWN_SEGMENTS = {"me", "my", "myself", "self", "current"}  # `/users/me`, `/myself`: the caller's own


def _callers_own(tool: Tool) -> bool:
    """A path about the caller: `/users/me`, `/myself`, or GitHub's `/user/orgs` (a singular `user` with no
    identifier after it); a single object there (`GET /user`) is the caller, not a list (`_lists`)."""
    segments = [s for s in _path(tool).lower().split("/") if s]
    return any(
        s in OWN_SEGMENTS or s == "user" and (i + 1 == len(segments) or not segments[i + 1].startswith("{"))
        for i, s in enumerate(segments)
    )


def _lists_collection(producer: Tool, collection: str) -> bool:
    """A GET of exactly the collection (or of its /search)."""
    return _method(producer) == "GET" and _norm_path(_path(producer)) in (collection, collection + "/search")


def reason_text(want: Want, producer: Tool, offer: Offer) -> str:
    if offer.source == "schema":
        return f"`{want.parameter}` ← `{offer.path}` of {producer.name}"
    return (
        f"`{want.parameter}` ← the {offer.resource}{'' if offer.field == '*' else ' ' + offer.field} "
        f"{producer.name} returns (described)"
    )


def _addressed_by(producer: Tool, consumer: Tool, parameter: str) -> bool:
    """Whether the producer's own path already takes the consumer's `parameter` of the same collection
    (`/statuses/{id}/bookmark` and `/statuses/{id}`): the caller had the value before calling the producer."""
    segment = "{" + parameter + "}"
    mine, theirs = (((t.http or {}).get("path") or "").split("/") for t in (producer, consumer))
    return segment in mine and segment in theirs and mine[: mine.index(segment)] == theirs[: theirs.index(segment)]


def _link_target(link: object, by_operation: dict[str, str]) -> str | None:
    """The tool an OpenAPI link points at (by operationId, else operationRef)."""
    if not isinstance(link, dict):
        return None
    target = by_operation.get(str(link.get("operationId") or ""))
    if target is None and isinstance(link.get("operationRef"), str):
        target = by_operation.get(link["operationRef"])
    return target


def _link_edge(producer: str, target: str, link_name: str, p: str | None, expression: object) -> ProposedEdge:
    if p:
        reason = f"`{p}` ← `{expression}` of {producer} (OpenAPI link {link_name})"
        kind = DependencyType.PARAMETER_DIRECTLY_DEPENDS_ON
    else:
        reason, kind = (
            f"{producer} links to {target} (OpenAPI link {link_name})",
            DependencyType.TOOL_DIRECTLY_DEPENDS_ON,
        )
    return ProposedEdge(target, producer, kind.value, 1.0, METHOD_LINKS, reason, p)


def link_proposals(tools: dict[str, Tool], by_operation: dict[str, str]) -> list[ProposedEdge]:
    """OpenAPI links, except those passing a value the producer was itself addressed by (a spec that links every
    response of a schema to its getters: an action on an item is no source of the item's id)."""
    out = []
    for producer in tools.values():
        for link_name, link in ((producer.http or {}).get("links") or {}).items():
            target = _link_target(link, by_operation)
            if target is None or target == producer.name:
                continue
            params = link.get("parameters") or {}
            consumer_params = {p["name"] for p in tools[target].parameters}
            names = [p for p in params if p in consumer_params] or [None]
            for p in names:
                if p is None or not _addressed_by(producer, tools[target], p):
                    out.append(_link_edge(producer.name, target, link_name, p, params.get(p) if p else None))
    return out


def _setting_pairs(tools: dict[str, Tool]) -> list[ProposedEdge]:
    """get_X/set_X pairs, each reading or changing the other's state: a device-wide setting (`get_wifi_status()` /
    `set_wifi_status(on)`), so only when the getter needs no parameter. A getter that needs an instance
    (`get_table_protection(table_id)`, `get_item_config(fullname)`) reads that item's state, and the corpus gold
    rarely pairs it with its setter (docs/dependencies.md, twenty-fourth session: spent12i)."""
    by_rest: dict[str, list[str]] = defaultdict(list)
    for name in tools:
        parts = name.split("_", 1)
        if len(parts) == 2 and parts[0] in ("get", "set"):
            by_rest[parts[1]].append(name)
    out = []
    for rest, names in by_rest.items():
        if len(names) == 2 and not any(p.get("required") for p in tools[f"get_{rest}"].parameters):
            a, b = names
            for s, t in ((a, b), (b, a)):
                out.append(
                    ProposedEdge(
                        s,
                        t,
                        DependencyType.TOOL_INDIRECTLY_DEPENDS_ON.value,
                        0.9,
                        METHOD_NAMES,
                        f"{t} reads or changes the same setting as {s} (getter/setter pair)",
                        None,
                    )
                )
    return out


def name_rule_proposals(tools: dict[str, Tool]) -> list[ProposedEdge]:
    """get_X/set_X pairs of a setting (_setting_pairs) and `get_<service>_status` gates."""
    out = _setting_pairs(tools)
    gates: dict[str, list[str]] = defaultdict(list)
    for name in tools:
        ws = words(name)
        if (
            len(ws) >= 3
            and ws[0] == "get"
            and ws[-1] == "status"
            and not any(p.get("required") for p in tools[name].parameters)
            and not tools[name].http
        ):  # a system's status, not an item's (nor an HTTP API's job: `GET /migration/todoist/status`)
            for w in set(ws[1:-1]) - {"service", "services", "mode", "current", "system", "user", "device"}:
                gates[w].append(name)
    for name in tools:
        own = set(words(name)) - {"get", "status", "service", "current", "system", "user", "device", "mode"}
        for w in own:
            for gate in gates.get(w, ()):
                if gate != name and set(words(gate)) - {"get", "status", "service", "services", "mode"} <= own | {
                    "current",
                    "system",
                    "user",
                    "device",
                }:
                    out.append(
                        ProposedEdge(
                            name,
                            gate,
                            DependencyType.TOOL_DIRECTLY_DEPENDS_ON.value,
                            0.7,
                            METHOD_NAMES,
                            f"{name} works only while the service {gate} reports is on",
                            None,
                        )
                    )
    return out


def named_source_proposals(tools: dict[str, Tool], sources: set[str] | None) -> list[ProposedEdge]:
    """A parameter whose description names where its value comes from: a tool by its exact name ("as printed by
    browser_network_requests"), or a noun a producer is named after ("from the page snapshot" ->
    browser_snapshot), a property inside an object or array parameter too (named by its path). Producers are tools
    that do not change anything."""
    by_noun = _named_after_nouns(tools)
    short = short_names(tools)
    out = []
    for consumer in tools.values():
        if sources is not None and consumer.name not in sources:
            continue
        # and inside objects and arrays (`items[].color`: "Refer to ... the `utils_get_colors` tool")
        for p in consumer.parameters + nested_parameters(consumer):
            text = str(p.get("description") or "")
            if not text or p.get("type") == "boolean":  # a flag is set, not looked up
                continue
            identifier = any(w.parameter == str(p.get("path") or p["name"]) and w.field != "*" for w in consumer.wants)
            # a docstring block's line names a source by the tool's exact name only: "from this VM" there is the scope
            phrases = not p.get(DOCSTRING)
            found = _named_sources(consumer, text, tools, short[server_of(consumer)], by_noun, identifier, phrases)
            for name, why in found.items():
                if p.get("path") and not same_source(consumer, tools[name]):  # a nested one: its own server's tools
                    continue
                if needs_it(tools[name], str(p["name"])):  # `[profile](get-profile)` links the thing's page
                    continue
                out.append(described_edge(consumer.name, name, str(p.get("path") or p["name"]), why))
    return out


def needs_it(named: Tool, name: str) -> bool:
    """A tool a parameter's description names that takes that very value in its own path (`profileId` "The
    identifier referring to the [profile](get-profile)", get-profile at `/v2/profiles/{profileId}`): the name links
    the thing's page, and a caller who could call it has the value already; it is no source of it."""
    return any(q.get("in") == "path" and q.get("name") == name for q in named.parameters)


def _named_after_nouns(tools: dict[str, Tool]) -> dict[str, list[str]]:
    """noun -> the tools named after that thing (`browser_snapshot`), not changing anything. A name that ends in
    `tool` without a verb (`ecs_troubleshooting_tool`, `asset_tool`) says what it is, no thing it reads: "from the
    execute_log_insights_query tool" names no such tool."""
    by_noun: dict[str, list[str]] = defaultdict(list)
    verbs = LIST_VERBS | GET_VERBS | CREATE_VERBS | CHANGE_VERBS
    for t in tools.values():
        ws = words(tool_part(t.name))
        if ws[-1:] == ["tool"] and not set(ws) & ALL_VERBS:
            continue
        if t.kind != "change" and ws and ws[-1] not in verbs and not _plural_before_last(ws):
            by_noun[singular(ws[-1])].append(t.name)
    return by_noun


def _named_sources(
    consumer: Tool,
    text: str,
    tools: dict[str, Tool],
    short: dict[str, str],
    by_noun: dict[str, list[str]],
    identifier: bool = True,
    phrases: bool = True,
) -> dict[str, str]:
    """The tools a parameter's description names as the value's source (name -> why): by exact name, unless named
    as an alternative, a later step or a tool the value is given to too (workflow.another_way); by a phrase, only
    with `phrases`, for an `identifier` (the parameter wants an instance by its id, key or name) and unless it names
    the consumer's own subject. A create only for an identifier: what a create returns is the new instance, no format, body or
    setting ("See create_page for format examples", the HTML of a template <- `[Postcards](#operation/postcard_create)`).
    A phrase names no source of anything else: "from the <noun>" of a status, amount, flag list or object mostly
    says where something is taken from or done ("Must be called from the System Domain", "when creating a volume
    from a snapshot", `expand` "from the most recent"), not where the value is read."""
    found: dict[str, str] = {}
    for m in mentions(text, short):
        if m.name != consumer.name and _supplies(tools[m.name], identifier) and not another_way(m):
            found.setdefault(m.name, f"its description names {tool_part(m.name)}")
    for name, why in (_named_by_phrases(text, by_noun, _own_noun(consumer)) if identifier and phrases else {}).items():
        if name != consumer.name:
            found.setdefault(name, why)
    return found


def _supplies(producer: Tool, identifier: bool) -> bool:
    """A tool named as a value's source can supply it: no change does, a create only an identifier."""
    return producer.kind != "change" and (identifier or producer.kind != "create")


def short_names(tools: dict[str, Tool]) -> dict[str, ToolNames]:
    """server -> the short name (`read_file` of `filesystem__read_file`) -> full name of its tools."""
    out: dict[str, ToolNames] = defaultdict(ToolNames)
    for name, tool in tools.items():
        out[server_of(tool)][short_name(name, tool)] = name
    return out


def _plural_before_last(ws: list[str]) -> bool:
    """`recommend_indexes_account`: a plural before the last word is what the tool is about, the last word its scope
    (indexes of an account), so "from the monitoring account" does not name it."""
    return len(ws) >= 3 and singular(ws[-2]) != ws[-2]


def _own_noun(consumer: Tool) -> str | None:
    """The consumer's own subject, the last word of its name, singular: "from the export" of
    `POST_mc-contacts-exports` names it, not a source."""
    ws = words(tool_part(consumer.name))
    return singular(ws[-1]) if ws else None


def workflow_proposals(tools: dict[str, Tool], sources: set[str] | None) -> list[ProposedEdge]:
    """A tool whose own description names another tool of its server as a step before it ("call download_paper
    first", "After completing data model design with dynamodb_data_modeling tool", "Use watch_topic to register
    topics before calling this", "created by the prepare_database_migration tool"), and two tools any description
    names as consecutive steps ("search_papers -> download_paper -> read_paper"; kg_tools/deps/workflow.py): an edge
    to the earlier step, for the parameter the sentence names, else for the tool as a whole."""
    short = short_names(tools)
    out: dict[tuple[str, str], ProposedEdge] = {}

    def add(consumer: Tool, m: Mention, cue: str) -> None:
        if m.name != consumer.name and (consumer.name, m.name) not in out:
            if sources is None or consumer.name in sources:
                out[(consumer.name, m.name)] = _workflow_edge(consumer, m, cue)

    for tool in tools.values():
        found = mentions(tool.description, short[server_of(tool)])
        for m in found:
            cue = runs_before(m, [o for o in found if o.clause is m.clause and o is not m])
            if cue:
                add(tool, m, cue)
        for earlier, later in steps(found):
            add(tools[later.name], earlier, "workflow")
    return list(out.values())


def staging_proposals(tools: dict[str, Tool], sources: set[str] | None) -> list[ProposedEdge]:
    """A tool that records what is staged (named `commit`, or after what a description says changes are "staged
    for") runs after the tools of its server that put changes into the staging area (kg_tools/deps/workflow.py)."""
    actions = staged_for([t.description for t in tools.values()])
    out = []
    for consumer in tools.values():
        if sources is not None and consumer.name not in sources or consumer.kind in ("list", "search", "get"):
            continue
        ws = words(tool_part(consumer.name))
        if not ws or not {ws[0], ws[-1]} & actions:
            continue
        for producer in tools.values():
            if producer is not consumer and same_source(consumer, producer) and stages(producer.description):
                why = f"{producer.name} puts changes into the staging area that {consumer.name} records"
                out.append(
                    ProposedEdge(
                        consumer.name,
                        producer.name,
                        DependencyType.TOOL_INDIRECTLY_DEPENDS_ON.value,
                        0.8,
                        METHOD_DESCRIPTION,
                        why,
                        None,
                    )
                )
    return out


def _workflow_edge(consumer: Tool, m: Mention, cue: str) -> ProposedEdge:
    why = f"its description: “{m.clause.strip()[:160]}”" if cue != "workflow" else f"“{m.clause.strip()[:160]}”"
    p = _named_parameter(consumer, m.clause)
    if p:
        return described_edge(consumer.name, m.name, p, why)
    return ProposedEdge(
        consumer.name,
        m.name,
        DependencyType.TOOL_DIRECTLY_DEPENDS_ON.value,
        0.8,
        METHOD_DESCRIPTION,
        f"{m.name} runs before it ({cue}; {why})",
        None,
    )


def described_edge(consumer: str, producer: str, parameter: str, why: str) -> ProposedEdge:
    """A fixed edge (confidence 0.8) whose source the consumer's own description names."""
    return ProposedEdge(
        consumer,
        producer,
        DependencyType.PARAMETER_DIRECTLY_DEPENDS_ON.value,
        0.8,
        METHOD_DESCRIPTION,
        f"`{parameter}` ← {producer} ({why})",
        parameter,
    )


# A tool's description that names the tool whose output it takes: "long-running commands started with
# start_process()", "after starting an agent with `firecrawl_agent`", "a paper previously downloaded via
# download_paper", "Pass a `scrapeId` from a previous firecrawl_scrape".
_STARTED_BY = re.compile(
    r"\b(?:started|starting|launched|downloaded|obtained)\b[^.\n]{0,60}?\b(?:with|by|via)\s+`?([\w-]+)"
    r"|\bfrom\s+a\s+previous\s+(?:call\s+to\s+)?`?([\w-]+)",
    re.I,
)


def started_by_proposals(tools: dict[str, Tool], sources: set[str] | None) -> list[ProposedEdge]:
    """A tool whose description says its subject was started, downloaded or returned by another tool of the
    catalog, named exactly ("commands started with start_process()"): that tool provides the identifier the
    consumer requires (the parameter the sentence names, else its first required identifier)."""
    short = {tool_part(name): name for name in tools}
    out = []
    for consumer in tools.values():
        if sources is not None and consumer.name not in sources:
            continue
        for m in _STARTED_BY.finditer(consumer.description):
            name = short.get(m.group(1) or m.group(2) or "")
            if not name or name == consumer.name:
                continue
            sentence = consumer.description[max(0, m.start() - 80) : m.end()]
            p = _started_parameter(consumer, sentence)
            if p:
                out.append(described_edge(consumer.name, name, p, f"its description: “{m.group(0).strip()}”"))
    return out


def _started_parameter(consumer: Tool, sentence: str) -> str | None:
    """The parameter that takes what another tool started: the one the sentence names (`scrapeId`; a plain word
    such as `input` is no name), else the first required identifier (`pid`, `paper_id`, `id`: a name ending in an
    identifier word, or an id glued to a letter)."""
    named = _named_parameter(consumer, sentence)
    if named:
        return named
    for p in consumer.parameters:
        ws = words(str(p.get("name") or ""))
        if p.get("required") and ws and (ws[-1] in ID_FIELDS or re.fullmatch(r"[a-z]id", ws[-1])):
            return str(p["name"])
    return None


def _named_parameter(consumer: Tool, sentence: str) -> str | None:
    """The first parameter of the consumer the sentence names (`scrapeId`; a plain word such as `input` is no name)."""
    names = [str(p.get("name") or "") for p in consumer.parameters]
    named = [
        n for n in names if n and (not n.isalpha() or not n.islower()) and re.search(rf"\b{re.escape(n)}\b", sentence)
    ]
    return named[0] if named else None


def _named_by_phrases(text: str, by_noun: dict[str, list[str]], own: str | None = None) -> dict[str, str]:
    """The tools a description's "from the <noun>" phrases name: the one or two tools named after that noun. A noun
    many tools are named after points to none of them, nor does a bare identifier word ("from the next key" of a
    paging token is no `ListLabelKeys`), nor the consumer's `own` subject, nor a generic noun qualified otherwise
    than the tool's name ("from the event data" is no `listCustomerAppData`)."""
    found: dict[str, str] = {}
    for phrase in source_phrases(text):
        *before, noun = [singular(w) for w in phrase.split()]
        qualifier = {w for w in before if w not in STOP}  # "from the all collections": no qualifier
        named = by_noun.get(noun, ())
        if len(named) <= 2 and noun not in ID_FIELDS and noun != own:
            for name in _without_qualified(named, before):
                if noun in SCHEMA_NOISE and not qualifier <= name_words(name):
                    continue  # "from the event data": a generic noun, qualified by what the tool is not named after
                found.setdefault(name, f"its description: “from the {phrase}”")
    return found


def _without_qualified(named: Iterable[str], said: list[str]) -> list[str]:
    """The tools named after a phrase's noun less one whose name is another's plus words the phrase does not say
    ("from the system domain": `show_domains`, not `show_dns_domains`): the extra words name a subset or another
    thing than the phrase's."""
    sets = {n: name_words(n) for n in named}
    return [n for n in sets if not any(o < sets[n] and not (sets[n] - o) & set(said) for o in sets.values())]


# An OData key predicate, a whole path segment `Libraries({Id})` or `People('{UserName}')`: the template
# expression of that segment's collection (OData URL conventions 4.3); composite keys and function calls
# (`GetNearestAirport(lat={lat},lon={lon})`) name their parameters and are left as they are.
_KEY_PREDICATE = re.compile(r"(?<=/)([^/(){}]+)\('?(\{[^/(){}']+\})'?\)(?=/|$)")


def _keyed_segments(http: dict) -> dict:
    """The operation with each OData key predicate read as its own path segment, as inference reads paths
    (`/Libraries({Id})/Documents` -> `/Libraries/{Id}/Documents`: `{Id}` is a library's key)."""
    path = http.get("path")
    if isinstance(path, str) and "(" in path:
        http["path"] = _KEY_PREDICATE.sub(r"\1/\2", path)
    return http


def prepare(raw_tools: Iterable) -> dict[str, Tool]:
    """Tools from ToolInfo-like objects (name, description, parameters, spec with output_schema/http/annotations)."""
    tools = {}
    for t in raw_tools:
        spec = getattr(t, "spec", None)
        tools[t.name] = Tool(
            t.name,
            t.description or "",
            list(t.parameters),
            output_schema=inlined_refs(getattr(spec, "output_schema", None)),
            http=_keyed_segments(http.model_dump()) if (http := getattr(spec, "http", None)) else None,
            annotations=hints.model_dump(exclude_none=True) if (hints := getattr(spec, "annotations", None)) else None,
            input_schema=_input_schema(spec),
            source=declared_source(t.name, spec),
        )
    return tools


def set_sources(tools: dict[str, Tool], source: str | None = None) -> None:
    """Every tool's source: declared, or its name family in a catalog that gathers many servers; `source` when the
    caller has read it (infer_producers, source by source: a part's names out of their catalog say less)."""
    if source is not None:
        for t in tools.values():
            t.source = source
        return
    declared = {n: t.source for n, t in tools.items()}
    found, groups = catalog_groups(list(tools), declared, {n for n, t in tools.items() if t.http}, dict(tools))
    for name, source in found.items():
        tools[name].source = source
        tools[name].group = groups.get(name, "")


def same_source(a: Tool, b: Tool) -> bool:
    """A value flows between tools of one source (gateway_servers, with declared sources and name families) that are not
    in two product groups nor have one between them (sources.apart)."""
    return a.source == b.source and not apart(a.group, b.group)


INLINED_NODES = 4000  # nodes of an output schema copied with its local `$ref`s followed
INLINED_DEPTH = 48  # schema levels (dicts and lists) copied: deeper than the offers are read (schema_offers)


def inlined_refs(schema: object) -> dict | None:
    """An output schema with its local `$ref`s (`#/$defs/ScheduleSummary`, as Pydantic writes an MCP tool's output)
    replaced by what they point to, siblings kept (`description`); a cycle, a pointer that does not resolve and
    nodes past INLINED_NODES stay references. A schema without a `$ref` comes back as it is."""
    if not isinstance(schema, dict):
        return None
    if '"$ref"' not in json.dumps(schema):
        return schema
    budget = [INLINED_NODES]

    def copy(node: object, seen: frozenset[str], depth: int) -> object:
        if isinstance(node, list):
            return [copy(v, seen, depth + 1) for v in node]
        if not isinstance(node, dict) or budget[0] <= 0 or depth > INLINED_DEPTH:
            return node
        budget[0] -= 1
        ref = node.get("$ref")
        if isinstance(ref, str) and ref not in seen and isinstance(target := _local_pointer(schema, ref), dict):
            merged = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
            return copy(merged, seen | {ref}, depth + 1)
        return {k: v if k in ("$defs", "definitions") else copy(v, seen, depth + 1) for k, v in node.items()}

    out = copy(schema, frozenset(), 0)
    return out if isinstance(out, dict) else None


def _input_schema(spec) -> dict | None:
    """The tool's argument schema (kept by the MCP, OpenAI-tools and OpenAPI loaders as an extra field of its spec)."""
    schema = (getattr(spec, "model_extra", None) or {}).get("input_schema")
    return schema if isinstance(schema, dict) else None


NESTED_DEPTH = 3  # levels of objects and arrays below a top-level parameter whose properties are read
NESTED_PROPERTIES = 40  # at most this many nested parameters per tool


def nested_parameters(tool: Tool) -> list[dict]:
    """The properties inside object and array parameters (`params.projectId`, `items[].task_id`) as parameters
    named by their dotted path (`path`) and their own name (`name`), required when every level is; they keep
    the top-level parameter's `in` (a request body's own `id` stays the body object's). Local `$ref`s of the
    input schema (`#/$defs/parentRequest`) are followed and the members of `anyOf`/`oneOf`/`allOf` read as one
    object (a `parent` that is a page's `{page_id}` or a database's `{database_id}`), for tools without HTTP: an
    OpenAPI body's `oneOf` are alternative requests (login methods) whose fields a person types (codes, tokens);
    a whole body's and an `only_union` parameter's members are read as alternatives."""
    root = tool.input_schema or {}
    unions = not tool.http
    props = root.get("properties")
    if not isinstance(props, dict):
        return []
    out: list[dict] = []
    seen: set[str] = set()
    walked: set[tuple[str, int]] = set()  # (path, schema): each object once per path, not once per route to it

    def walk(
        node: object, path: str, required: bool, where: object, depth: int, alternatives: bool = False, inside: str = ""
    ) -> None:
        if depth > NESTED_DEPTH or path.count("[]") > NESTED_DEPTH:  # an array of itself (`A = str | list[A]`)
            return
        shapes = schema_shapes(node, root, unions=unions or alternatives)
        # a whole body's `allOf` members are parts of one request; its `oneOf`/`anyOf` members alternative requests
        joined = {id(s) for s in schema_shapes(node, root, keys=("allOf",))} if alternatives and not unions else set()
        for shape in shapes:  # of alternatives (`anyOf`), none is required
            if shape.get("type") == "array" or "items" in shape:
                walk(shape.get("items"), path + "[]", required, where, depth, inside=inside)
                continue
            children = shape.get("properties")
            if not isinstance(children, dict):
                continue
            if "href" in children and "_links" in path.split("."):  # a HAL link: its href is the reference
                children = {"href": children["href"]}
            listed = shape.get("required") if len(shapes) == 1 else None
            needed = {r for r in listed if isinstance(r, str)} if isinstance(listed, list) else set()
            # an embedded instance of a model posted back (`created_by: {id, …}`): an HTTP body's object with an `id`,
            # not an array's element (`line_items[]: {id, product_id}`) nor an input object (`input: {id, stateId}`)
            # (or its `id` is read-only: `_read_only_instance`)
            instance = bool(tool.http) and not path.endswith("[]")
            instance = instance and (
                any(map(_own_id, children)) or _read_only_instance(tool, shape, path, alternatives and depth == 1)
            )
            for name, child in children.items():
                where_to = f"{path}.{name}"
                if len(out) >= NESTED_PROPERTIES or not isinstance(child, dict):
                    continue
                child = next(iter(schema_shapes(child, root, objects=False, unions=unions)), child)
                if (where_to, id(child)) in walked:
                    continue
                walked.add((where_to, id(child)))
                if where_to in seen:  # another alternative's object of that name (each operation's `params`)
                    walk(child, where_to, False, where, depth + (name not in LINK_HOLDERS))
                    continue
                seen.add(where_to)
                leaf: dict[str, object] = {
                    "name": str(name),
                    "path": where_to,
                    "type": _json_type(child),
                    "description": str(child.get("description") or ""),
                    "required": required and name in needed,
                }
                if where:
                    leaf["in"] = where
                if instance and not own_identifier(name):
                    leaf["instance_field"] = True
                if inside:
                    leaf["embedded"] = inside  # below a field of an embedded instance (see _nested_want)
                if alternatives and len(shapes) > 1 and not unions and id(shape) not in joined:
                    leaf["alternative"] = True  # one of a whole body's alternative requests (see _nested_want)
                if isinstance(child.get("enum"), list):
                    leaf["enum"] = child["enum"]
                if web_address(child):
                    leaf["web_address"] = True  # read by parameter_wants
                out.append(leaf)
                # the fields of an embedded instance, not of a whole request body (its own fields)
                below = inside or (path if leaf.get("instance_field") and not (alternatives and depth == 1) else "")
                below = "" if name in LINK_HOLDERS else below  # a JSON:API or HAL reference's holder, no data
                walk(child, where_to, bool(leaf["required"]), where, depth + (name not in LINK_HOLDERS), inside=below)

    for p in tool.parameters:
        node = props.get(p.get("name"))
        alternatives = whole_body(tool, p) or only_union(node, root)
        if isinstance(node, dict) and (
            p.get("type") in ("object", "array") or schema_shapes(node, root, unions=unions or alternatives)
        ):
            walk(node, str(p["name"]), bool(p.get("required")), p.get("in"), 1, alternatives)
    return out


def _read_only_instance(tool: Tool, shape: dict, path: str, whole: bool) -> bool:
    """A model whose own id is `readOnly` (left out by the OpenAPI loader, named in `x-read-only`) inside a request:
    an embedded instance (Exoscale's `{instance: $ref instance}` of `PUT /security-group/{id}:attach`), unless it
    is the request itself: a whole body, a `data` envelope, an object named after a collection of the operation's
    own path or begun by its name (`order`, `order_request`, `orderInput` of `POST /orders`: the new order posted
    under a wrapper; not `security_group` of `/instances/{id}/attach-security-group`)."""
    names = shape.get("x-read-only")
    name = path.rsplit(".", 1)[-1]
    if whole or not isinstance(names, list) or not any(map(_own_id, names)):
        return False
    return not _begun_by_own_collection(tool, name) and not set(words(name)) <= FORMAT_WORDS


def _begun_by_own_collection(tool: Tool, name: str) -> bool:
    """A body object whose name's words begin with those of a static segment of the operation's path."""
    ws = tuple(singular(w) for w in words(name))
    mine = {tuple(singular(w) for w in words(s)) for s in _path(tool).split("/") if s and not s.startswith("{")}
    return any(seg and ws[: len(seg)] == seg for seg in mine)


def only_union(node: object, root: dict) -> bool:
    """A parameter whose schema is only a `oneOf` of objects (JSON:API's `data`, one member per kind of card or
    account, each with its `relationships`): its members are read as a whole body's are. Not an `anyOf` (mostly an
    optional object, `anyOf: [Filter, null]`, whose filters of other resources' fields offered wrong edges), nor a
    `oneOf` of one object and `null` (the same optional object, spelled as OpenAPI 3.1 and Pydantic write it)."""
    return not schema_shapes(node, root, unions=False) and len(schema_shapes(node, root, keys=("oneOf",))) >= 2


def whole_body(tool: Tool, p: dict) -> bool:
    """The request body an OpenAPI loader kept as one parameter `body` (its schema no plain object: an `allOf` of
    objects, a `oneOf` of alternative requests): its properties are the request's own fields, like the top-level
    parameters of a flat body -- wanted even undescribed, each alternative's (`{droplet_id}` or `{region}`) read."""
    if not (tool.http and p.get("in") == "body" and p.get("type") in ("object", None)):
        return False
    return p.get("name") == "body" or (str(p.get("name")).startswith("body_") and p.get("name") == _body_name(tool))


def _body_name(tool: Tool) -> str:
    """The name the OpenAPI loader gives a request body kept as one parameter: `body`, else `body_2`, `body_3` ...
    past the path, query and header parameters of those names (loaders/openapi.py `numbered_body`): a query parameter
    `body` beside an `allOf` body makes the body `body_2`, still the request's own fields."""
    return numbered_body({q.get("name") for q in tool.parameters if q.get("in") != "body"})


def _body_field(tool: Tool, p: dict) -> bool:
    """A property one level inside a whole request body (`body.billing_group_id`)."""
    top, _, rest = str(p.get("path") or "").partition(".")
    return bool(rest) and "." not in rest and any(q.get("name") == top and whole_body(tool, q) for q in tool.parameters)


UNION_KEYS = ("allOf", "anyOf", "oneOf")
LINK_HOLDERS = {"_links", "relationships"}  # HAL's and JSON:API's holders of references: no level of their own
# `data.relationships.provider.data.id` (JSON:API), `_links.definingProject.href` (HAL): an id of the related thing
_LINKED = re.compile(
    r"(?:^|\.)(?:relationships\.([^.\[\]]+)\.data|_links\.([^.\[\]]+))(?:\[\])?\.(?:id|href|identifier)$"
)


def linked_reference(tool: Tool, p: dict) -> str | None:
    """A request body's reference by shape, named by its relation (`provider_id`, `roles_id`), else None: JSON:API's
    `relationships.<rel>.data[].id` (or `data[].id` posted to `/…/relationships/<rel>`), HAL's `_links.<rel>.href`.
    A link whose relation is an action (`_links.update`, `_links.self`) is the object's own, and one plural link
    (`_links.categories`, not `_links.roles[]`) a collection's: neither is looked up."""
    path = str(p.get("path") or "")
    m = _LINKED.search(path)
    rel: str | None = m.group(1) or m.group(2) if m else None
    link = m.group(2) if m else None
    ws = words(link or "")
    if link and (not ws or f"{link}[]" not in path.split(".") and singular(ws[-1]) != ws[-1]):
        return None
    segments = _path(tool).rstrip("/").split("/")
    if not rel and re.fullmatch(r"data(?:\[\])?\.id", path) and len(segments) > 2 and segments[-2] == "relationships":
        rel = segments[-1]
    if not rel or rel == "self" or name_verb_and_object(rel)[0] in ALL_VERBS:
        return None
    return f"{rel}_id"


def schema_shapes(
    node: object, root: dict, *, objects: bool = True, unions: bool = True, depth: int = 4, keys: tuple = ()
) -> list[dict]:
    """The schemas a node may be, local `$ref`s followed (a cycle or a pointer that does not resolve ends the walk)
    and, with `unions`, `allOf`/`anyOf`/`oneOf` members (or only those of `keys`) taken one by one; with `objects`,
    only those with properties or items."""
    refs: set[str] = set()
    while isinstance(node, dict) and isinstance(node.get("$ref"), str) and node["$ref"] not in refs:
        refs.add(node["$ref"])
        node = _local_pointer(root, node["$ref"])
    if not isinstance(node, dict) or depth <= 0:
        return []
    members = [m for key in keys or UNION_KEYS if unions and isinstance(node.get(key), list) for m in node[key]]
    own = [node] if not objects or isinstance(node.get("properties"), dict) or "items" in node else []
    if not objects and not members:
        return own
    shapes = (schema_shapes(m, root, objects=objects, unions=unions, depth=depth - 1, keys=keys) for m in members)
    return own + [s for found in shapes for s in found]


def _local_pointer(root: dict, ref: str) -> object:
    """The node a local JSON pointer (`#/$defs/x`, `#/definitions/x`) names inside `root`, else None."""
    if not ref.startswith("#/"):
        return None
    node: object = root
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        node = node.get(part) if isinstance(node, dict) else None
    return node


def _own_id(name: object) -> bool:
    """An object's own `id`/`uuid` (not its `key`, `path` or `ref`, which a config object holds)."""
    return own_identifier(name) and ID_FIELDS.get(words(str(name))[0]) == "id"


def _instance_wants(tool: Tool, p: dict, want: Want) -> bool:
    """A field of an object that has an identifier of its own is wanted when it identifies that object
    (`member_user.user_id`) or the object is the consumer's own resource (`issue_data` of `create_issue`, a body
    wrapped in its collection's name); otherwise it is the embedded instance's own data (`created_by.bot_owner_id`
    of a full model posted back: the server's user, not a value the caller looks up)."""
    parent = str(p["path"]).rsplit(".", 2)[-2].removesuffix("[]").rsplit(".", 1)[-1]
    held = {singular(w) for w in words(parent)}
    if any(held & set(r.split()) for r in want.resources) or wrapped_field(tool, p):
        return True
    verb, rest = name_verb_and_object(tool.name)
    return not tool.http and bool(held & {singular(w) for w in rest}) and "." not in str(p["path"]).split(".", 1)[1]


def wrapped_field(tool: Tool, p: dict) -> bool:
    """A field of a request body wrapped in an object named after a collection of the operation's own path
    (`POST /addresses` with `{address: {country_id, user_id}}`, `PATCH /line_items/{id}` with `{line_item:
    {variant_id}}`, the Rails convention): the resource's own fields, wanted like top-level parameters even when
    undescribed."""
    top, _, rest = str(p.get("path") or "").partition(".")
    if p.get("in") != "body" or not rest or "." in rest or "[" in top + rest:
        return False
    return _own_collection(tool, top)


def _own_collection(tool: Tool, name: str) -> bool:
    """A body object named after a collection of the operation's own path (`address` of `POST /addresses`)."""
    mine = {tuple(singular(w) for w in words(s)) for s in _path(tool).split("/") if s and not s.startswith("{")}
    return tuple(singular(w) for w in words(name)) in mine


def _owner_named(p: dict) -> dict:
    """A nested bare identifier named by the object holding it: `parent.id` as `parent_id`."""
    ws = words(str(p["name"]))
    owner = str(p["path"]).rsplit(".", 2)[-2].removesuffix("[]") if str(p["path"]).count(".") else ""
    if len(ws) != 1 or ID_FIELDS.get(ws[0]) != "id" or not owner:
        return p
    return {**p, "name": f"{owner}_{p['name']}"}


def _json_type(schema: dict) -> str | None:
    """A property's type: the first non-null one of a list or of `anyOf`/`oneOf` members."""
    kinds = schema.get("type")
    if isinstance(kinds, list):
        kinds = next((k for k in kinds if k != "null"), None)
    if kinds is None:
        for member in [m for key in ("anyOf", "oneOf") if isinstance(schema.get(key), list) for m in schema[key]]:
            if isinstance(member, dict) and member.get("type") not in (None, "null"):
                return _json_type(member)
    return kinds if isinstance(kinds, str) else None


def path_wants(tool: Tool) -> list[Want]:
    """Path template parameters no other rule recognised (`/teams/{team_key}`, `/users/{email}`,
    `/projects/{slug}`): each names an existing instance of the resource of the segment before it."""
    segments = [s for s in _path(tool).split("/") if s]
    known = {w.parameter for w in tool.wants}
    # a path parameter wins over a query one of the same name (`{type}` beside `?type=`, as specs repeat names)
    params = {str(p.get("name")): p for p in sorted(tool.parameters, key=lambda p: p.get("in") == "path")}
    out = []
    for i, seg in enumerate(segments):
        if not (seg.startswith("{") and seg.endswith("}")):
            continue
        name = seg[1:-1]
        ws = words(name)
        if name in known or name not in params or _listed_choice(params[name], ws):
            continue
        before = [s for s in segments[:i] if not s.startswith("{")]
        resource = _self_named(params[name], ws) or (_segment_resource(before[-1]) if before else None)
        if not resource and before and before[-1].isalpha():  # `/t/{id}` of `getTopic`: a topic (not `/2/{id}`)
            resource = _name_object(tool)
        field = ID_FIELDS.get(ws[-1], "id") if ws else "id"
        out.append(Want(name, [resource] if resource else [], field, True, True))
    return out


def _listed_choice(p: dict, ws: list[str]) -> bool:
    """A path parameter whose schema lists its values (`/reports/devices/{type}` in [xlsx, mail]): a choice, no
    instance; unless its name says an id (`{event_id}` in [latest, oldest]: keywords accepted beside real ids)."""
    return bool(p.get("enum")) and not (ws and ID_FIELDS.get(ws[-1]) == "id")


def bulk_body_wants(tool: Tool, known: set[str]) -> list[Want]:
    """A change of a whole collection (`PUT|PATCH|DELETE /sites/`) whose request body is a list of objects is a
    bulk update or delete of existing instances of it: the body wants them (by id)."""
    if _method(tool) not in ("PUT", "PATCH", "DELETE") or rpc_call(tool):
        return []
    segments = [s for s in _path(tool).split("/") if s]
    body = [p for p in tool.parameters if p.get("in") == "body"]
    if not segments or segments[-1].startswith("{") or len(body) != 1 or body[0].get("type") != "array":
        return []
    name = str(body[0].get("name") or "")
    items = _dict(_dict(_dict(tool.input_schema).get("properties")).get(name)).get("items")
    resource = _segment_resource(segments[-1])
    if not isinstance(items, dict) or items.get("type") != "object" or resource not in known:
        return []
    if any(w.parameter == name for w in tool.wants):
        return []
    return [Want(name, [resource], "id", bool(body[0].get("required")))]


def _dict(value: object) -> dict:
    """A schema node as a dict; a boolean schema, a list or nothing reads as empty."""
    return value if isinstance(value, dict) else {}


def _name_object(tool: Tool) -> str | None:
    """What a tool's name is about, before a cut word (`getTopic`, `getCycleById` -> topic, cycle)."""
    return resource_key(_name_object_words(tool))


def _self_named(p: dict, ws: list[str]) -> str | None:
    """A path parameter named by a plain noun that its description calls an identifier of that noun (`{set}`: "JSON
    Web Key Set ID" under `/keys/{set}`): an instance of that noun, not of the segment before it (eighth session)."""
    if len(ws) != 1 or ws[0] in ID_FIELDS:
        return None
    text = words(str(p.get("description") or ""))
    said = any(a == ws[0] and ID_FIELDS.get(b) == "id" for a, b in zip(text, text[1:]))
    return parameter_resource(ws) if said else None


def path_index(tools: dict[str, Tool]) -> dict[tuple[str, str], list[str]]:
    """(method, normalised path) -> tool names."""
    out: dict[tuple[str, str], list[str]] = defaultdict(list)
    for t in tools.values():
        http = t.http or {}
        if http.get("path") and http.get("method"):
            method, path = read_as(str(http["method"]).upper()), _norm_path(str(http["path"]))
            out[(method, path)].append(t.name)
            if method == "GET" and not path.endswith("}"):  # a collection by its last segment, any parent
                out[("GET", "*" + path.rsplit("/", 1)[-1])].append(t.name)
    return out


CONTAINER_MIN = 5  # a top-level collection inside whose instances this many collections are listed: a container


def containers(paths: dict[tuple[str, str], list[str]]) -> dict[str, set[str]]:
    """The containers of a catalog (`/workspaces`, an account, an organisation), each with the collections listed
    inside its instances (`projects`, `teams`, `tags`): a top-level collection, listed by a GET without path
    parameters and never under another parent, inside whose instances at least CONTAINER_MIN collections are listed."""
    gets = [path for method, path in paths if method == "GET" and not path.startswith("*")]
    scoped = {path.rsplit("/", 1)[-1] for path in gets if "/{}/" in path}
    inside: dict[str, set[str]] = defaultdict(set)
    for path in gets:
        parent, _, rest = path.partition("/{}/")
        if rest and parent.rsplit("/", 1)[-1] not in scoped:
            inside[parent].add(rest.split("/")[0])
    return {parent: names for parent, names in inside.items() if parent in gets and len(names) >= CONTAINER_MIN}


def container_scope(producer: Tool, held: dict[str, set[str]]) -> int:
    """2: the producer lists a collection inside a container's instance (`/workspaces/{}/projects`); 1: inside an
    instance of a collection a container holds (`/teams/{}/projects`, teams listed in a workspace); else 0."""
    parent, _, last = _norm_path(_path(producer)).rpartition("/{}/")
    if not last or "/" in last:
        return 0
    if parent in held:
        return 2
    return int(any(parent.rsplit("/", 1)[-1] in names for names in held.values()))


def _name_words(tool: Tool) -> frozenset[str]:
    """The singular words of a tool's name (its tool part) and of its path's fixed segments."""
    return _name_and_path_words(tool_part(tool.name), str((tool.http or {}).get("path") or ""))


@lru_cache(maxsize=65536)  # read once per tool and parameter (named_after's order): 2,400 operations took 20 s
def _name_and_path_words(part: str, path: str) -> frozenset[str]:
    text = part + " " + " ".join(s for s in path.split("/") if not s.startswith("{"))
    return frozenset(singular(w) for w in words(text))


def _described_object(tool: Tool) -> set[str]:
    """The object a reader without HTTP named by its verb alone (`jira_search`, `confluence_search`) reads, as its
    description gives it ("Search Jira issues using JQL" -> issue): the word its name leaves out."""
    verb, rest = name_verb_and_object(tool.name)
    if tool.http or rest or not verb or tool.kind not in ("search", "list"):
        return set()
    found = described_resources(tool.description)[:1]
    return set(found[0].split()) if found else set()


NAME_CANDIDATES = 12  # producers named after a parameter's resource, per parameter


def server_of(tool: Tool) -> str:
    """The server a gateway-style name (`server__tool`) belongs to; '' for a plain name or an operationId
    (sources.gateway_server)."""
    return gateway_server(tool.name, tool)


def gateway_servers(raw_tools: Iterable) -> dict[str, str]:
    """name -> its gateway server's product family (sources.product_families): a value flows between tools of one
    server (one API, one MCP server) or of one product's servers; in a catalog that gathers several
    (`github__get_issue`, `redis__get`) another product's generic reader is no provider."""
    servers = {t.name: gateway_server(t.name, getattr(t, "spec", None)) for t in raw_tools}
    family = product_families(servers.values())
    return {n: family.get(s, s) for n, s in servers.items()}


def name_index(tools: dict[str, Tool]) -> dict[str, list[str]]:
    """singular name word -> the tools that read (list, search, get, log in) and are named with it."""
    out: dict[str, list[str]] = defaultdict(list)
    for t in tools.values():
        if t.kind in ("list", "search", "get", "auth"):
            for w in _name_words(t):
                out[w].append(t.name)
    return out


def named_after(want: Want, tools: dict[str, Tool], names: dict[str, list[str]], source: str = "") -> list[str]:
    """Readers of the consumer's `source` whose name or path holds every word of the wanted resource (`shard_key` ->
    list_shard_keys)."""
    nouns = _named_nouns(want)
    if not nouns or nouns <= FIELD_WORDS:  # `name` alone: a field of something unsaid, no resource to be named after
        return []
    found = {n for n in set.intersection(*(set(names.get(n, ())) for n in nouns)) if tools[n].source == source}
    order = {"list": 0, "search": 0, "auth": 1, "get": 2}
    return sorted(found, key=lambda n: (order.get(tools[n].kind, 3), len(_name_words(tools[n])), n))[:NAME_CANDIDATES]


def _named_nouns(want: Want) -> set[str]:
    """The words a reader named after the wanted resource holds: the resource's, else the parameter's less its
    identifier word."""
    nouns = set(want.resources[0].split()) if want.resources else set()
    if not nouns:
        ws = [singular(w) for w in words(want.parameter)]
        nouns = set(ws[:-1] if len(ws) > 1 and ws[-1] in ID_FIELDS else ws)
    return nouns - {"id", "the", "a"}


def named_for_another(name: str, want: Want) -> bool:
    """A name that holds the wanted resource's words but whose head noun is another word (`search_goal_types`,
    `get_time_tracks` for a goal, a time): the resource qualifies what it reads (twenty-second session). Not a
    head that is the resource's field (`list_metric_names`), nor a resource named in the path alone."""
    heads, nouns = name_heads(name), _named_nouns(want)
    return (
        bool(heads)
        and nouns <= name_words(name)
        and not heads & nouns
        and not any(ID_FIELDS.get(h) in ("id", "key", "name") for h in heads)
    )


# Qualified resource identity (issue 28, sixth session). A name that puts words before the resource
# (`getLoginFlow`, `ListCronWorkflows`, `UpdateClusterWorkflowTemplate`) may name a *kind* of that resource the
# catalog keeps apart: a login flow is no settings flow, a cron workflow no workflow. A qualifier is a kind when
# tools of at least KIND_VERBS different verbs are named with it (create, get, update of login flows) and the
# resource has at least two such kinds; one or two tools named with an adjective (`get-users-saved-tracks`,
# `get-featured-playlists`) make no kind, nor does a path prefix alone (`/mc/lists`).
KIND_VERBS = 3


def name_qualifier(name: str) -> tuple[str | None, str | None, tuple[str, ...]]:
    """(verb, head, qualifier) of a tool name: the first verb, the resource it ends with (singular; before a `for`,
    `in` ..., without a trailing identifier word) and the words between them (`createBrowserLoginFlow` -> create,
    flow, (browser, login); `WorkflowService_DeleteWorkflow` -> delete, workflow, (); `getTasksForProject` -> get,
    task, ()); a name without a known verb takes its first word as the verb."""
    ws = [singular(w) for w in words(tool_part(name)) if w not in ("a", "an", "the")]
    at = next((i for i, w in enumerate(ws[:-1]) if w in ALL_VERBS), 0)
    verb, rest = (ws[at], ws[at + 1 :]) if ws else (None, [])
    cut = next((i for i, w in enumerate(rest) if w in FOR_WORDS or w == "by"), len(rest))
    rest = rest[:cut]
    rest = [w for w in rest if ID_FIELDS.get(w) != "id"]  # `get_folders_id_items`: the path's words, not its ids
    if not rest:
        return verb, None, ()
    qualifier = [w for w in rest[:-1] if w != rest[-1] and not VERSION_WORD.fullmatch(w)]  # `asm-groups-group_id`
    # a path-built name says a parent once per segment (`get-v1-company_benefits-company_benefit_id`): one company
    return verb, rest[-1], tuple(w for i, w in enumerate(qualifier) if not i or w != qualifier[i - 1])


def _parent_words(tools: dict[str, Tool]) -> set[str]:
    """The words of every path collection whose instances are addressed (`projects` of /projects/{id}): in a
    name built from a path (`get_projects_id_templates`) they are a parent, not a kind."""
    out: set[str] = set()
    for t in tools.values():
        segments = ((t.http or {}).get("path") or "").split("/")
        for seg, nxt in zip(segments, segments[1:]):
            if seg and not seg.startswith("{") and nxt.startswith("{") and words(seg):
                out.add(singular(words(seg)[-1]))
    return out


def resource_kinds(tools: dict[str, Tool]) -> dict[str, set[tuple[str, ...]]]:
    """head resource -> the qualifiers that name a kind of it in this catalog (see KIND_VERBS); a qualifier ending
    of path collections' words only is a parent (`/projects/{}/templates`), no kind."""
    parents = _parent_words(tools)
    verbs: dict[tuple[str, tuple[str, ...]], set[str]] = defaultdict(set)
    for t in tools.values():
        verb, head, qualifier = name_qualifier(t.name)
        for i in range(len(qualifier)):  # every suffix: `native login` flows are login flows too
            verbs[(head or "", qualifier[i:])].add(verb or "")
    kinds: dict[str, set[tuple[str, ...]]] = defaultdict(set)
    for (head, qualifier), vs in verbs.items():
        if len(vs) >= KIND_VERBS and not set(qualifier) <= parents:
            kinds[head].add(qualifier)
    # one qualifier alone is a namespace (`/mc/lists`, `/v3/senders`), not kinds the catalog keeps apart
    return {head: qs for head, qs in kinds.items() if len({q[-1] for q in qs}) >= 2}


def _kind_of(qualifier: tuple[str, ...], kinds: set[tuple[str, ...]]) -> tuple[str, ...]:
    """The longest suffix of a qualifier that is a kind (() for a bare or unqualified resource)."""
    return next((qualifier[i:] for i in range(len(qualifier)) if qualifier[i:] in kinds), ())


def qualifier_conflict(consumer: Tool, want: Want, producer: Tool, kinds: dict[str, set[tuple[str, ...]]]) -> bool:
    """The consumer's name and the producer's both end with the wanted resource but name different kinds of it
    (`getLoginFlow` <- `createBrowserSettingsFlow`; `DeleteWorkflow` <- `ListCronWorkflows`); False when either
    name is about something else or the resource has no kinds in the catalog."""
    head = singular(want.resources[0].split()[-1]) if want.resources else None
    if not head or not kinds.get(head):
        return False
    _, own_head, own = name_qualifier(consumer.name)
    _, other_head, other = name_qualifier(producer.name)
    if own_head != head:
        return False
    if other_head != head:  # `getFlowError`: about a flow's error, not a login flow
        return bool(_kind_of(own, kinds[head])) and head in other
    other_kind = _kind_of(other, kinds[head])
    if not other_kind and head in GENERIC_RESOURCES:  # `get-items-on-board` lists items of every kind (card items)
        return False
    return _kind_of(own, kinds[head]) != other_kind


def want_qualifier(consumer: Tool, want: Want) -> set[str]:
    """The words that qualify the wanted resource: before it in the parameter's name (`project_membership_gid` ->
    project), else in the consumer's name when that ends with it (`getLoginFlow` -> login); none for a bare one."""
    head = singular(want.resources[0].split()[-1]) if want.resources else None
    if not head:
        return set()
    ws = [singular(w) for w in words(want.parameter.rsplit(".", 1)[-1])]
    if head in ws[1:]:
        return {w for w in ws[: ws.index(head)] if w not in STOP_QUALIFIERS}
    _, own_head, qualifier = name_qualifier(consumer.name)
    return {w for w in qualifier if w not in STOP_QUALIFIERS} if own_head == head else set()


STOP_QUALIFIERS = {
    "a",
    "an",
    "the",
    "my",
    "user",
    "current",
    "of",
    "multiple",
    "several",
    "all",
    "many",
}  # whose, how many


def qualifier_share(qualifier: set[str], producer: Tool) -> float:
    """The share of the qualifier words in the producer's name, path and output schema title; -1 without any."""
    if not qualifier:
        return -1.0
    title = (producer.output_schema or {}).get("title") if isinstance(producer.output_schema, dict) else None
    mine = _name_words(producer) | {singular(w) for w in words(str(title or ""))}
    return len(qualifier & mine) / len(qualifier)


def _fellow_consumer(want: Want, producer: Tool) -> bool:
    """A tool that takes the same nested property (`params.projectSlug`) is another consumer of it, unless one of its
    operations lists the thing (`get-teams` beside `get-team(params.teamId)`)."""
    takes = any(w.parameter == want.parameter for w in producer.wants)
    return takes and not (want.resources and want.resources[0] in _operations_listed(producer))


def want_candidates(
    consumer: Tool,
    want: Want,
    index: dict[str, list[Offer]],
    tools: dict[str, Tool],
    paths: dict,
    names: dict,
    kinds: dict[str, set[tuple[str, ...]]] | None = None,
    named: Callable[[str], bool] | None = None,
    compounds: dict[tuple[str, str], set[str]] | None = None,
) -> list[Candidate]:
    """Every producer that may provide one parameter's value: by resource (the offers index) and by the path
    template (a GET of the collection the parameter's value lives in, a POST that adds to it). `named`, `compounds`:
    the catalog's catalog_named and name_compounds, read once per catalog."""
    named = named or catalog_named(tools)
    if _unnamed_qualifier(want, named):
        reread = _named_noun(want, named)
        if reread is None:
            return []
        want = dataclasses.replace(want, resources=[reread])
    matches = _resource_matches(consumer, want, index, tools)
    matches = {n: m for n, m in matches.items() if same_source(consumer, m.producer)}  # before narrowing
    kept = narrow(consumer, want, dict(matches))
    out = {
        name: Candidate(
            consumer, want, m.producer, m.offer, m.score, name in kept, note=kept[name].note if name in kept else ""
        )
        for name, m in matches.items()
    }
    _add_path_candidates(out, consumer, want, tools, paths)
    for name in named_after(want, tools, names, consumer.source):
        producer = tools[name]
        if (
            name != consumer.name
            and name not in out
            and not (
                _scoped_by(producer, want)
                or _reads_one_it_is_given(producer, want)
                or _gets_one_by_optional_ids(producer, want)
            )
            and not _written_value(consumer, want)
        ):
            out[name] = Candidate(consumer, want, producer, None, other_head=named_for_another(name, want))
    out = {name: c for name, c in out.items() if not hands_nothing_on(c.producer)}
    out = _kept_candidates(out, consumer, want, tools, paths, kinds, compounds)
    wanted = set(want.resources[0].split()) if want.resources else set()
    said = _said_word(want)
    for c in out.values():
        c.resource_in_name = _resource_in_name(wanted, c.producer, said)
        c.lookup = is_lookup(c.producer, want)
        c.made = offers_new(c.producer, c.offer)
    qualifier = want_qualifier(consumer, want)
    for c in out.values():
        c.qualifier_share = qualifier_share(qualifier, c.producer)
    return list(out.values())


def hands_nothing_on(tool: Tool) -> bool:
    """A tool whose answer holds no value to hand on: a file, or a blank object not made yet."""
    return answers_a_file(tool) or answers_a_blank(tool)


def answers_a_file(tool: Tool) -> bool:
    """A reader whose answer is a file, not a JSON value (the importer's `response_media_type`: Komga's
    `getBookThumbnail`, "Get book's poster image", answers a JPEG): nothing in it is handed on, whatever its name or
    description says it returns. A create or change keeps its place: what it makes is there once it answers."""
    return tool.kind in READER_KINDS and bool((tool.http or {}).get("response_media_type"))


BLANK_SEGMENTS = {"create", "new"}  # Rails' and Laravel's read of a form's blank object: `GET /invoices/create`
_BLANK_TEXT = re.compile(r"\b(blank|empty|unsaved)\b|\bdefault values?\b", re.I)


def answers_a_blank(tool: Tool) -> bool:
    """A GET of a static `create` or `new` under a collection (`GET /invoices/create`, "Returns a blank object with
    default values"): the object it answers is not made yet and has no id to hand on. A GET creates nothing, so
    `create` says so alone; `new` may also list the newest (`/posts/new`), so its description must say blank,
    empty, unsaved or default values. A POST there is a create; `/{id}/edit` reads one that exists."""
    segments = _path(tool).strip("/").split("/")
    if _method(tool) != "GET" or len(segments) < 2 or segments[-1].lower() not in BLANK_SEGMENTS:
        return False
    if segments[-2].startswith(("{", ":")):
        return False  # `/boards/{board}/new`: one thing's newest, no collection's form
    return segments[-1].lower() == "create" or bool(_BLANK_TEXT.search(tool.description or ""))


def _written_value(consumer: Tool, want: Want) -> bool:
    """A list of strings or objects or a nested property in the request body of an HTTP write (`realmRoles` of a
    POST, `searches`, `events[].transaction_id`): mostly a value the caller writes, so no reader is its provider by
    its name alone (an offer or the path still makes one); a list of numbers or of either is one of ids (`points`).
    MCP tools carry no HTTP operation and keep theirs (right three times in four there; docs/dependencies.md,
    "values read as references on specs")."""
    if read_as(str((consumer.http or {}).get("method", "GET")).upper()) in ("GET", "HEAD"):
        return False
    if want.nested:
        return True
    top = next((p for p in consumer.parameters if p.get("name") == want.parameter), {})
    schema = ((consumer.input_schema or {}).get("properties") or {}).get(want.parameter)
    items = schema.get("items") if isinstance(schema, dict) else None
    return top.get("in") == "body" and isinstance(items, dict) and items.get("type") in ("string", "object")


def _unnamed_qualifier(want: Want, named: Callable[[str], bool]) -> bool:
    """A name want whose resource is a qualifier inside a compound name (`entityLogicalName` -> logical, a word
    between another noun and the field) that no tool of the catalog is named after: a misread (want_candidates
    reads the noun before it, or gives no provider)."""
    if not want.resources or want.field not in ("name", "*"):  # ids: `associationTypeId` (a type) was right
        return False
    head = singular(want.resources[0].split()[-1])
    ws = [singular(w) for w in words(want.parameter.rsplit(".", 1)[-1])]
    if len(ws) < 3 or head not in ws[1:-1] or ws[-1] == head:
        return False
    return not named(head)


def _named_noun(want: Want, named: Callable[[str], bool]) -> str | None:
    """The nearest word before the misread qualifier that a tool is named after (`entityLogicalName` -> entity;
    `logicalEntityLogicalName`: before the inner `logical`)."""
    head = singular(want.resources[0].split()[-1])
    ws = [singular(w) for w in words(want.parameter.rsplit(".", 1)[-1])]
    for w in reversed(ws[: ws.index(head, 1)]):
        if w not in STOP and not w.isdigit() and named(w):
            return synonym(w)
    return None


def catalog_named(tools: dict[str, Tool]) -> Callable[[str], bool]:
    """Whether some tool of the catalog is named after a word: its name, path or output title holds the word, also
    glued (`list_datasources` for source), or its output schema holds an object of it (`head.sha`). The catalog's
    words are read once and each word asked once (a scan of every tool per parameter: 110 s on 3,000 tools)."""
    named: set[str] = set()
    heads: set[str] = set()
    for t in tools.values():
        title = t.output_schema.get("title") if isinstance(t.output_schema, dict) else None
        named |= _name_words(t) | {singular(w) for w in words(str(title or ""))}
        heads |= {o.resource.rsplit(" ", 1)[-1] for o in t.offers if o.source == "schema"}

    @cache
    def named_after(word: str) -> bool:
        return word in heads or any(w.endswith(word) for w in named)

    return named_after


def offers_new(producer: Tool, offer: Offer | None) -> bool:
    """A create whose output schema gives the id of the very instance it makes (`createThread` -> `id` of a thread),
    not one nested in it or another object's `<x>_id`: a parameter nothing else provides takes it (scoring.made_for)."""
    return (
        producer.kind == "create"
        and offer is not None
        and offer.source == "schema"
        and offer.primary
        and not offer.reference
        and offer.resource == created_resource(producer)
    )


def _kept_candidates(
    out: dict[str, Candidate],
    consumer: Tool,
    want: Want,
    tools: dict[str, Tool],
    paths: dict,
    kinds: dict[str, set[tuple[str, ...]]] | None,
    compounds: dict[tuple[str, str], set[str]] | None,
) -> dict[str, Candidate]:
    """The candidates left once those that cannot provide the value are dropped: another server's tools, readers
    of another type or without a path, lists of other things, another kind of the resource, fellow consumers,
    echoes of the consumer's own value (echoes.py). `compounds`: the catalog's name_compounds, when read."""
    compounds = name_compounds(tools) if compounds is None else compounds
    out = {name: c for name, c in out.items() if same_source(consumer, c.producer)}
    if want.typed:
        out = _typed_readers(out)
    out = _no_path_readers(out, want)
    out = {
        name: c
        for name, c in out.items()
        if c.path_list or not lists_other_things(consumer, c.producer, want, tools, paths)
    }
    if kinds:  # another kind of the resource (a settings flow for a login flow's id) is no provider
        out = {name: c for name, c in out.items() if not qualifier_conflict(consumer, want, c.producer, kinds)}
    if want.nested:
        out = {name: c for name, c in out.items() if not _fellow_consumer(want, c.producer)}
    return {name: c for name, c in out.items() if not _no_source(consumer, c, tools, compounds)}


def _no_source(
    consumer: Tool, c: Candidate, tools: dict[str, Tool], compounds: dict[tuple[str, str], set[str]]
) -> bool:
    """Another kind or compound of the resource, a field of one instance, other identifiers, an echo or an action."""
    if _described_other_kind(consumer, c) or _described_other_compound(consumer, c, compounds):
        return True
    if _field_of_one(consumer, c) or _lists_other_identifiers(c):
        return True
    return echoed_nested(c.want, c.offer, tools) or acts_on_wanted(c.producer, c.want)


def _described_other_kind(consumer: Tool, c: Candidate) -> bool:
    """A producer found by its description alone that names another kind of the wanted resource: the want is
    qualified (`entitySetName`: an entity set), the producer's name holds none of the qualifier's words and puts
    another word right before the resource (`list_global_option_sets`: option sets), one the consumer's name lacks
    (a prefix, `erpnext_warehouse_list`); not a producer whose name names a scope it takes as a parameter
    (`get_project_users(projectId)` lists a project's users)."""
    if c.offer is None or c.offer.source != "description" or not c.want.resources:
        return False
    qualifier = want_qualifier(consumer, c.want)
    if qualifier_share(qualifier, c.producer) != 0:
        return False
    head = singular(c.want.resources[0].split()[-1])
    ws = [singular(w) for w in words(tool_part(c.producer.name))]
    at = len(ws) - 1 - ws[::-1].index(head) if head in ws else 0
    before = ws[at - 1] if at else ""
    if not before or before in ALL_VERBS or before in STOP_QUALIFIERS or before in _name_words(consumer):
        return False
    scopes = {singular(w) for p in c.producer.parameters for w in words(str(p.get("name") or ""))}
    return not scopes & (set(ws) - {head})


def _described_other_compound(consumer: Tool, c: Candidate, compounds: dict[tuple[str, str], set[str]]) -> bool:
    """A producer found by its description alone whose name makes another compound on the wanted resource's head
    word (`port_groups_list`: port groups) than the consumer's own (`devicegroup_update(name)`: a device group; the
    parameter's qualifier first, `poller_group`), when a third tool of the catalog is named after the consumer's
    compound (`devicegroups_list`): that kind has tools of its own, this producer is about another kind. Not a word
    the consumer's name holds (a prefix) nor a scope the producer takes (`list_member_groups(member_id)`); nor a
    collection the parameter's path addresses (`/orgs/{org}/members` for a team's member: the same collection).
    An identifier no tool offers, looked up by its description's noun (`rulegroup_id`: "ID of the rule group" ->
    group), takes its head from that noun and its own word from the parameter's name (rule), not the consumer's
    (`manageBlocklistBySubscriberList(target_list_ids)`: the lists are no block lists)."""
    if c.offer is None or c.offer.source != "description" or not c.want.resources:
        return False
    if c.path_list or c.path_scoped or c.path_create:
        return False
    fallback = c.offer.resource in c.want.fallback  # "ID of the rule group": a `rulegroup_id` no tool offers
    head = singular((c.offer.resource if fallback else c.want.resources[0]).split()[-1])
    if fallback:  # the word the parameter's name puts before the head, also glued (`rulegroup_id` -> rule)
        own = compound_words(c.want.parameter.rsplit(".", 1)[-1], head)
    else:
        own = want_qualifier(consumer, c.want) or compound_words(consumer.name, head)
    own -= STOP
    other = compound_words(c.producer.name, head)
    if not own or not other or own & other or other & _name_words(consumer) or other & _scopes(c.producer, head):
        return False
    return any(compounds.get((w, head), set()) - {consumer.name, c.producer.name} for w in own)


def compound_words(name: str, head: str) -> set[str]:
    """The words a tool's name puts right before a head word, also glued to it (`port_groups_list`,
    `devicegroups_list` -> port, device), less verbs and function words."""
    ws = [singular(w) for w in words(tool_part(name))]
    found = {ws[i - 1] for i in range(1, len(ws)) if ws[i] == head}
    found |= {w[: -len(head)] for w in ws if w.endswith(head) and len(w) > len(head) + 2}
    return found - ALL_VERBS - STOP - STOP_QUALIFIERS


def name_compounds(tools: dict[str, Tool]) -> dict[tuple[str, str], set[str]]:
    """(word, head) -> the tools whose name makes that compound (compound_words of every head at once): read once
    per catalog, not once per candidate (a scan of every tool per candidate: 20 s on 2,400 tools in one part)."""
    out: dict[tuple[str, str], set[str]] = defaultdict(set)
    for name in tools:
        ws = [singular(w) for w in words(tool_part(name))]
        pairs = set(zip(ws, ws[1:]))
        pairs |= {(w[:k], w[k:]) for w in ws for k in range(3, len(w))}  # glued: 3 letters or more before the head
        for word, head in pairs:
            if word not in ALL_VERBS and word not in STOP and word not in STOP_QUALIFIERS:
                out[(word, head)].add(name)
    return out


def _scopes(producer: Tool, head: str) -> set[str]:
    """The words of the producer's identifier parameters (`memberId`) that do not name the head word itself
    (`poller_group` is the poller group it reads); a filter (`payment_type`, `supplier`) is no scope."""
    names = [[singular(w) for w in words(str(p.get("name") or ""))] for p in producer.parameters]
    return {w for ws in names if ws and head not in ws and ws[-1] in ID_FIELDS for w in ws}


def _lists_other_identifiers(c: Candidate) -> bool:
    """A reader named after the wanted resource (no offer matched) whose output lists nothing but other identifiers
    of it (`list_shard_keys` for a `shard_id`): its name is no source of the wanted field (idlists.py)."""
    if c.offer is not None or c.want.field == "*" or not c.want.resources:
        return False
    listed = [o for o in c.producer.offers if o.listed and o.resource == c.want.resources[0]]
    return bool(listed) and all(o.field != c.want.field for o in listed)


def lists_other_things(consumer: Tool, producer: Tool, want: Want, tools: dict[str, Tool], paths: dict) -> bool:
    """A GET whose path says its items are not instances of the wanted resource (twelfth session, precision): it
    lists inside ONE instance of it, or a parent's links to it (see the two functions below)."""
    path = _path(producer)
    if _method(producer) != "GET" or not path or not want.resources:
        return False
    parts = [s for s in _norm_path(path).split("/") if s]
    return _inside_one_instance(consumer, want.resources[0], parts, paths) or _parent_links(want, parts, tools, paths)


def _inside_one_instance(consumer: Tool, wanted: str, parts: list[str], paths: dict) -> bool:
    """A singular segment before the end that names the resource and is a singleton another GET reads or one of a
    collection listed elsewhere (`/me/drive` of `/drives`: `/me/drive/sharedByMe` lists what my drive shares), not a
    collection (no `/drive/{id}` in the catalog: `/project/recent` lists projects), or is followed by an instance's
    id (`/job/{name}/scale`); unless a listing verb follows (`/pet/findByStatus`)."""
    for i, seg in enumerate(parts[:-1]):
        ws = words(seg)
        if not ws or seg == "{}" or singular(ws[-1]) != ws[-1] or resource_key(ws) != wanted:
            continue
        rest = {w for s in parts[i + 1 :] for w in words(s)}
        prefix = "/" + "/".join(parts[: i + 1])
        reader = [n for n in paths.get(("GET", prefix), []) if n != consumer.name]
        plural = any(("GET", f"*{p}") in paths for p in (seg + "s", seg + "es", seg[:-1] + "ies"))
        collection = any((m, prefix + "/{}") in paths for m in ("GET", "PUT", "PATCH", "DELETE"))
        singleton = (bool(reader) or plural) and not collection
        if (singleton or parts[i + 1] == "{}") and not rest & (ALL_LIST_WORDS | {wanted}):
            return True
    return False


def _parent_links(want: Want, parts: list[str], tools: dict[str, Tool], paths: dict) -> bool:
    """A parent's links to the resource: its item paths name their id after both
    (`/subscriptions/{}/addons/{subscriptionAddonId}`: a subscription's add-ons, each with an id of its own) and the
    resource has a top-level collection of its own (`GET /addons`), unless the wanted parameter names that parent."""
    if len(parts) < 3 or parts[-2] != "{}":
        return False
    wanted = want.resources[0]
    parent = {singular(w) for w in words(parts[-3])}
    own = {singular(w) for w in _parameter_name_words(want.parameter)}
    top = any("{}" not in _norm_path(_path(tools[n])) for n in paths.get(("GET", "*" + parts[-1]), []))
    for method in ("GET", "PUT", "PATCH", "DELETE"):
        for name in paths.get((method, "/" + "/".join(parts) + "/{}"), []):
            last = _path(tools[name]).rstrip("/").rsplit("/", 1)[-1].strip("{}")
            item = {singular(w) for w in words(last)}
            if top and parent & item and not parent & own and wanted in item:
                return True
    return False


ALL_LIST_WORDS = LIST_VERBS | {"all"}


def _field_of_one(consumer: Tool, c: Candidate) -> bool:
    """A reader of one instance (`get_invoice(id)`: "Fetch a single invoice by ID ... Returns customer, date, due
    date") whose description names another resource, in the singular, among what it returns: a field of the
    instance read (its customer), a value for the consumers of that same instance (`edit_invoice(id,
    customer_name)`), no source of the resource for the others (fourteenth session, precision). Contents named in
    the plural (`board schema (columns and groups)`) are the instance's own things and stay."""
    o, producer = c.offer, c.producer
    if o is None or o.source != "description" or o.path in CHOSEN_PATHS or not o.primary or producer.kind != "get":
        return False
    read = {r for w in producer.wants if w.required and w.field != "*" for r in w.resources[:1]}
    if not read or o.resource in read or o.resource in _name_resources(producer.name) or o.resource in ID_FIELDS:
        return False
    head = o.resource.split()[-1]
    if any(singular(w) == head != w for w in words(producer.description)):
        return False
    return not any(set(w.resources[:1]) & read for w in consumer.wants)


def _typed_readers(out: dict[str, Candidate]) -> dict[str, Candidate]:
    """For a typed `name` (`kubectl_delete(resourceType, name)`): the readers that take a type of resource too
    (`kubectl_get(resourceType, name?)` lists those of a type), not a listing of the types themselves nor a reader
    that needs the name itself (`kubectl_describe`)."""
    return {
        n: c
        for n, c in out.items()
        if c.producer.kind in ("list", "search", "get")
        and _type_parameter(c.producer)
        and not looks_up(c.producer, c.want)
    }


def _resource_matches(
    consumer: Tool, want: Want, index: dict[str, list[Offer]], tools: dict[str, Tool]
) -> dict[str, Match]:
    """The best-scored offer of each producer of the wanted resource: the most likely resource first, the next
    only if it has no producer."""
    matches: dict[str, Match] = {}
    for resource in want.resources + want.fallback:
        for offer in index.get(resource, ()):
            producer = tools[offer.tool]
            scored = None if _objects_from_strings(consumer, want, offer) else score(consumer, want, producer, offer)
            if scored is None:
                continue
            s, exact = scored
            if offer.tool not in matches or s > matches[offer.tool].score:
                matches[offer.tool] = Match(producer, offer, want, s, exact)
        if matches:
            break
    return matches


def _add_path_candidates(
    out: dict[str, Candidate], consumer: Tool, want: Want, tools: dict[str, Tool], paths: dict
) -> None:
    """Marks (adding them to `out` when new) the GET of the collection the value lives in, the GET of a collection
    of that name under another parent (/teams/{}/projects, /workspaces/{}/projects for /projects) and the POST
    that adds to it."""
    collection = collection_path(consumer, want)
    if not collection:
        return
    adds = adds_to_collection(consumer, want)
    listing = paths.get(("GET", collection), []) + paths.get(("GET", collection + "/search"), [])
    # a search of the collection sent as a POST (`POST /contacts/search`, `POST /points/scroll`) lists it too
    listing += [n for end in SEARCH_SEGMENTS for n in paths.get(("POST", f"{collection}/{end}"), [])]
    if collection.endswith("/{}"):  # /taskInstances/{task_id}/{map_index}: a getter of one item lists nothing
        listing = [n for n in listing if not _one_item(tools[n])]  # (/workflows/{namespace} lists workflows)
    scoped = paths.get(("GET", "*" + collection.rsplit("/", 1)[-1]), [])
    given = {n for n in listing + scoped if _reads_one_it_is_given(tools[n], want)}  # GET /api/Crate?crateId=
    for name in listing:
        if name != consumer.name and name not in given:
            c = out[name] = _candidate(out, consumer, want, tools, name)
            c.path_list, c.adds_conflict = True, adds
    for name in scoped:
        if name != consumer.name and name not in given and not (name in out and out[name].path_list):
            c = out[name] = _candidate(out, consumer, want, tools, name)
            c.path_scoped, c.adds_conflict = True, adds
    for name in paths.get(("POST", collection), []) + action_creators(paths, collection):
        if name != consumer.name and not adds:
            c = out[name] = _candidate(out, consumer, want, tools, name)
            c.path_create = True


def _one_item(tool: Tool) -> bool:
    """A getter whose output schema is one object, no list of items."""
    schema = tool.output_schema
    return tool.kind == "get" and isinstance(schema, dict) and bool(schema.get("properties")) and not _lists(schema)


CREATE_SEGMENTS = ("submit", "create", "new", "generate", "build")  # POST /workflows/{ns}/submit makes a workflow


def action_creators(paths: dict, collection: str) -> list[str]:
    """The POSTs to a create action of a collection (`POST /workflows/{}/submit` for `/workflows/{}`): they make an
    instance of it as a POST to the collection itself does."""
    return [n for end in CREATE_SEGMENTS for n in paths.get(("POST", f"{collection}/{end}"), [])]


def _candidate(out: dict[str, Candidate], consumer: Tool, want: Want, tools: dict[str, Tool], name: str) -> Candidate:
    """The candidate `name` of `out`, else a new one matched by the path alone."""
    return out.get(name) or Candidate(consumer, want, tools[name], None)


def candidate_groups(
    raw_tools: Iterable,
    *,
    sources: set[str] | None = None,
    progress: Callable[[int], None] | None = None,
    name_rules: bool = True,
    nested_wants: bool = True,
    source: str | None = None,
    product_groups: dict[str, str] | None = None,
) -> tuple[list[ProposedEdge], list[list[Candidate]]]:
    """(the proposals of fixed rules: OpenAPI links, getter/setter and status names, parameters whose description
    names their source; one group of candidates per parameter that wants an existing instance, features set).
    `nested_wants`: identifiers inside object and array parameters want providers too (see set_wants). `source`:
    every tool's, when known (see set_sources); `product_groups`: name -> group (sources.catalog_groups)."""
    raw_tools = list(raw_tools)
    with catalog_names(raw_tools):
        tools = prepare(raw_tools)
        set_sources(tools, source)
        for name, group in (product_groups or {}).items():
            if name in tools:
                tools[name].group = group
        for t in tools.values():
            t.kind = tool_kind(t)
        index = offer_index(tools)
        set_wants(tools, set(index), nested_wants=nested_wants)
        by_operation = {t.http["operation_id"]: t.name for t in tools.values() if t.http and t.http.get("operation_id")}
        fixed: list[ProposedEdge] = link_proposals(tools, by_operation)
        linked = {(p.source, p.parameter_name) for p in fixed}
        if name_rules:
            fixed += name_rule_proposals(tools)
        fixed += named_source_proposals(tools, sources)
        fixed += started_by_proposals(tools, sources)
        fixed += workflow_proposals(tools, sources)
        fixed += staging_proposals(tools, sources)
        fixed += vocabulary_proposals(tools, sources)
        fixed = [p for p in fixed if same_source(tools[p.source], tools[p.target])]  # as gateway_servers at the end
        paths = path_index(tools)
        fixed += parent_getter_proposals(tools, paths, sources, linked)
        names = name_index(tools)
        kinds = resource_kinds(tools)
        named = catalog_named(tools)
        compounds = name_compounds(tools)
        groups: list[list[Candidate]] = []
        hub_groups: list[list[Candidate]] = []  # the hub share leaves out wants nested in an HTTP operation's parameter
        for consumer in tools.values():
            if progress:
                progress(1)
            if sources is not None and consumer.name not in sources:
                continue
            for want in consumer.wants:
                if (consumer.name, want.parameter) not in linked:
                    groups.append(want_candidates(consumer, want, index, tools, paths, names, kinds, named, compounds))
                    if not (want.nested and consumer.http):
                        hub_groups.append(groups[-1])
        set_features(groups, containers(paths), hub_groups)
        return fixed, groups


def offer_index(tools: dict[str, Tool]) -> dict[str, list[Offer]]:
    """Sets every tool's offers; resource -> its offers, a bounded list per resource, best producers first."""
    index: dict[str, list[Offer]] = defaultdict(list)
    for t in tools.values():
        t.offers = tool_offers(t)
    compounds = catalog_compounds(tools)
    compound_offers(tools, compounds)
    search_type_offers(tools, compounds)
    list_type_offers(tools, compounds)
    typed_search_offers(tools, compounds)
    sole_contents(tools)
    for t in tools.values():
        for o in t.offers:
            index[o.resource].append(o)
    for offers in index.values():
        offers.sort(key=lambda o: (-standalone_score(tools[o.tool], o), o.tool))
        seen: dict[str, int] = defaultdict(int)  # the bound holds per source: one server's offers hide no other's
        bounded = []
        for o in offers:
            seen[tools[o.tool].source] += 1
            if seen[tools[o.tool].source] <= CANDIDATES_PER_RESOURCE * 4:
                bounded.append(o)
        offers[:] = bounded
    return index


def set_wants(tools: dict[str, Tool], known: set[str], *, nested_wants: bool = True) -> None:
    """Sets every tool's wants (of the `known` resources, and its path template's), each marked rare when at
    most RARE_PARAMETER tools of the catalog take a parameter of its name. With `nested_wants` (the default), the
    identifiers inside object and array parameters too (`nested_parameters`; docs/dependencies.md, "Nested wants")."""
    takers: dict[str, int] = defaultdict(int)
    for t in tools.values():
        nested = nested_parameters(t) if nested_wants else []
        t.wants = [w for w in (parameter_wants(t, p, known) for p in t.parameters) if w]
        t.wants += path_wants(t)
        t.wants += [w for w in (_nested_want(t, p, known) for p in nested) if w]
        for prop in t.parameters + nested:
            takers[str(prop.get("path") or prop.get("name"))] += 1
    for t in tools.values():
        for w in t.wants:
            w.rare = takers[w.parameter] <= RARE_PARAMETER
    compound_wants(tools, catalog_compounds(tools))
    _pool_resources(tools)
    for t in tools.values():  # after the pooling: a body called `body` is no name of one thing across tools
        t.wants += bulk_body_wants(t, known)


def _nested_want(t: Tool, p: dict, known: set[str]) -> Want | None:
    """The identifier a property inside an object or array parameter wants (`task_id`, `labelIds`, `name`, not the
    thing itself), under its path; a described one, or one wanted by its shape (a JSON:API or HAL reference)."""
    body = _body_field(t, p)
    if linked := linked_reference(t, p):
        p = {**p, "name": linked}
    elif t.http and not p.get("description") and not wrapped_field(t, p) and not body:
        return None
    want = parameter_wants(t, _owner_named(p) if t.http and not linked else p, known)
    if not want or want.field == "*" or (p.get("instance_field") and not _instance_wants(t, p, want)):
        return None
    if p.get("embedded") and not _own_collection(t, str(p["embedded"]).rsplit(".", 1)[-1]):
        return None  # an id inside an embedded instance's field (`instance.snapshots[].id`): its data, not wanted
    # a whole body's field read only by this rule (undescribed, or in one of its alternative requests: a login
    # method's `csrf_token`, `totp_code`) is wanted when it is an identifier, not a token, code or URL one types
    if body and (not p.get("description") or p.get("alternative")) and want.field != "id":
        return None
    want.parameter, want.nested = str(p["path"]), True
    return want


def _pool_resources(tools: dict[str, Tool]) -> None:
    """A parameter name of its own (`fullname`, `filepath`, not a bare `id` or `name`) names one thing across a
    server's tools, whatever each description calls it ("the fullname of the job", "... of the item"): each want
    of that name also takes the resources the others' descriptions give, after its own."""
    pooled: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    for t in tools.values():
        for w in t.wants:
            if _own_name(w):
                key = (server_of(t), w.parameter, w.field)
                pooled[key] += [r for r in w.resources if r not in pooled[key]]
    for t in tools.values():
        for w in t.wants:
            if _own_name(w):
                w.resources += [r for r in pooled[(server_of(t), w.parameter, w.field)] if r not in w.resources]


def _own_name(w: Want) -> bool:
    """A top-level parameter whose name is one word but no bare identifier word (`fullname`, `collection`)."""
    ws = words(w.parameter)
    return not w.in_path and not w.nested and len(ws) == 1 and ws[0] not in ID_FIELDS


def set_features(
    groups: list[list[Candidate]], held: dict[str, set[str]], hub_groups: list[list[Candidate]] | None = None
) -> None:
    """Every candidate's feature vector (kg_tools/deps/scoring.py), within its group and the whole catalog;
    `held`: the catalog's containers and what they hold (containers). The hub share counts the `hub_groups`
    (default: all). Wants nested in an HTTP operation's parameter (`parent.id`, `send_to.list_ids` of a request
    body) are left out of it: the shipped trees learned it without them, and counting them moves every top-level
    candidate's share (docs/dependencies.md, "OpenAPI request bodies")."""
    hub_groups = groups if hub_groups is None else hub_groups
    serves: dict[str, int] = defaultdict(int)
    for group in hub_groups:
        for c in group:
            serves[c.producer.name] += 1
    n = max(len(hub_groups), 1)
    for group in groups:
        best = max((c.hand for c in group), default=0.0)
        for c in group:
            c.scope = container_scope(c.producer, held) if c.path_scoped else 0
            c.features = feature_vector(
                c,
                candidates=len(group),
                best_hand=best,
                hub_share=serves[c.producer.name] / n,
                own=own_list_for(c.consumer, c.want, c.producer),
            )
        add_relative(group)


def candidate_proposal(c: Candidate, rank: int, least: float = 0.0) -> ProposedEdge:
    """`least`: the selection's threshold, the confidence of a create or a list kept below it (scoring.made_for,
    scoring.listed_for, scoring.named_list_for)."""
    o = c.offer
    # the value is what the producer is about, not nested in another resource nor inside the text an output
    # schema declares (`{content: string}` of list_directory)
    direct = o is None or o.primary and not (o.source == "description" and c.producer.output_schema)
    dtype = DependencyType.PARAMETER_DIRECTLY_DEPENDS_ON if direct else DependencyType.PARAMETER_INDIRECTLY_DEPENDS_ON
    http = c.producer.http or {}
    by_path = c.path_list or c.path_create or c.path_scoped
    kept_below = c.probability < least  # kept below the threshold: what it is, and that nothing else provides it
    if o is not None and o.source == "schema":
        made = f" ({'it makes one' if c.made else 'a list of it'}; nothing else provides it)" if kept_below else ""
        method, reason = METHOD_SCHEMA, reason_text(c.want, c.producer, o) + c.note + made
    elif by_path:
        what = "what adds to the collection" if c.path_create else "the collection"
        method = METHOD_PATH
        reason = (
            f"`{c.want.parameter}` ← {c.producer.name} ({http.get('method')} {http.get('path')}: {what} "
            f"{'of that name ' if c.path_scoped and not c.path_list else ''}the path addresses)"
        )
    elif o is not None:
        listed = " (a list of it; nothing else provides it)" if kept_below else ""
        method, reason = METHOD_DESCRIPTION, reason_text(c.want, c.producer, o) + c.note + listed
    else:
        named = " ".join(c.want.resources[:1]) or c.want.parameter
        alone = "; nothing else provides it" if kept_below else ""
        method, reason = (
            METHOD_NAME,
            f"`{c.want.parameter}` ← {c.producer.name} (a reader named after the {named}{alone})",
        )
    return ProposedEdge(
        c.consumer.name,
        c.producer.name,
        dtype.value,
        round(max(c.probability, least), 4),
        method,
        reason,
        c.want.parameter,
        rank=rank,
    )


def infer_producers(
    raw_tools: Iterable,
    *,
    sources: set[str] | None = None,
    min_confidence: float = 0.0,
    progress: Callable[[int], None] | None = None,
    name_rules: bool = True,
    scorer: Scorer | None = None,
    abstained: dict[str, int] | None = None,
    nested_wants: bool = True,
) -> list[ProposedEdge]:
    """Producer -> consumer proposals for a catalog (see the module doc), each source's in listing order.
    `abstained`, when given, receives how many parameters were left without a provider and why. A catalog that
    gathers several servers (kg_tools/deps/sources.py) is inferred server by server: no value flows between them,
    and what the scorer counts over a catalog (hubs, rare parameters, bounded candidate lists) is one server's."""
    scorer = scorer or default_scorer()
    out: list[ProposedEdge] = []
    groups: dict[str, str] = {}
    rare: dict[str, frozenset[str]] = {}
    for source, part in sourced_parts(list(raw_tools), groups, rare).items():
        if sources is not None and not any(t.name in sources for t in part):
            if progress:
                progress(len(part))
            continue
        left: dict[str, int] = {}
        out += _part_producers(
            part, source, sources, min_confidence, progress, name_rules, scorer, left, nested_wants, groups, rare
        )
        if abstained is not None:
            for why, n in left.items():
                abstained[why] = abstained.get(why, 0) + n
    return out


def without_second_callers(accepted: list[Candidate]) -> list[Candidate]:
    """The accepted candidates less a reader of the caller (`get_current_user`, `whoami`, `my_issues`) kept as a
    person parameter's second provider when its output holds no id of that person (described only, or a name or
    an email): the id of the user, member or watcher asked for is another person's, which the first provider (a
    list of users) gives; the caller's own id comes back only from a getter whose output schema carries it."""
    best: dict[tuple[str, str], float] = {}
    for c in accepted:
        key = (c.consumer.name, c.want.parameter)
        best[key] = max(best.get(key, 0.0), c.probability)
    return [c for c in accepted if c.probability >= best[(c.consumer.name, c.want.parameter)] or not _callers_person(c)]


def _callers_person(c: Candidate) -> bool:
    """A reader of the caller offering a person the parameter wants, without that person's id in its output schema."""
    if c.offer is not None and c.offer.source == "schema" and c.offer.field == "id":
        return False
    if not set(c.want.resources[:1]) & {*PERSON_RESOURCES, "admin", "account"}:
        return False
    segments = {s.lower() for s in _path(c.producer).split("/")}
    return bool((set(words(c.producer.name)) | segments) & CALLER_WORDS)


def source_parts(raw_tools: list) -> list[list]:
    return list(sourced_parts(raw_tools).values())


def sourced_parts(
    raw_tools: list, groups: dict[str, str] | None = None, rare: dict[str, frozenset[str]] | None = None
) -> dict[str, list]:
    """The catalog's tools by source (kg_tools/deps/sources.py), each part in the order given; sources are read in
    the order the catalog was loaded in when its tools know their place, those without one (written by a PUT) last.
    `groups`, when given, receives the tools' product groups (sources.catalog_groups); `rare`, the rare words of a
    large catalog in no server order (kg_tools/deps/unordered.py)."""
    names = _load_order(raw_tools)
    specs = {t.name: getattr(t, "spec", None) for t in raw_tools}
    declared = {n: declared_source(n, spec) for n, spec in specs.items()}
    family = product_families(declared.values())
    declared = {n: family.get(s, s) for n, s in declared.items()}
    operations = {n for n, spec in specs.items() if getattr(spec, "http", None)}
    source, found = catalog_groups(names, declared, operations, {t.name: t for t in raw_tools})
    if groups is not None:
        groups.update(found)
    unordered = rare_words(names, declared, operations, {t.name: t for t in raw_tools})
    if rare is not None:
        rare.update(unordered)
    if unordered:  # no server order to read: stand-in servers by what their tools share (standins.py)
        source |= stand_in_servers({t.name: t for t in raw_tools if unordered.get(t.name)})  # others get no value
    parts: dict[str, list] = defaultdict(list)
    for t in raw_tools:
        parts[source[t.name]].append(t)
    return dict(parts)


def _load_order(raw_tools: list) -> list[str]:
    """The tools' names in the order the catalog was loaded in, those without a place (written by a PUT) last."""
    places = [getattr(t, "position", None) for t in raw_tools]
    placed = sorted(((p, i) for i, p in enumerate(places) if p is not None))
    return [raw_tools[i].name for _, i in placed] + [t.name for t, p in zip(raw_tools, places) if p is None]


def _part_producers(
    raw_tools: list,
    source: str,
    sources: set[str] | None,
    min_confidence: float,
    progress: Callable[[int], None] | None,
    name_rules: bool,
    scorer: Scorer,
    abstained: dict[str, int],
    nested_wants: bool,
    product_groups: dict[str, str] | None = None,
    rare: dict[str, frozenset[str]] | None = None,
) -> list[ProposedEdge]:
    """infer_producers of one source's tools; with `rare` words (unordered.rare_words), only the candidates and
    proposals whose two tools share one (unordered.may_flow)."""
    with catalog_names(raw_tools):
        proposals, groups = candidate_groups(
            raw_tools,
            sources=sources,
            progress=progress,
            name_rules=name_rules,
            nested_wants=nested_wants,
            source=source,
            product_groups=product_groups,
        )
        if rare:
            proposals = [p for p in proposals if may_flow(p.source, p.target, rare)]
            groups = [[c for c in g if may_flow(c.consumer.name, c.producer.name, rare)] for g in groups]
        set_probabilities(groups, scorer)
        accepted, left = select(groups, scorer)
        accepted = without_second_callers(accepted)
        abstained.update(left)
        ranks: dict[tuple[str, str], int] = defaultdict(int)
        for c in sorted(accepted, key=lambda c: -c.probability):
            key = (c.consumer.name, c.want.parameter)
            proposals.append(candidate_proposal(c, ranks[key], scorer.threshold))
            ranks[key] += 1
        # one edge per (source, target): for the parameter it serves best, then the most confident
        best_edge: dict[tuple[str, str], ProposedEdge] = {}
        servers = gateway_servers(raw_tools)
        for p in proposals:
            if sources is not None and p.source not in sources or servers.get(p.source) != servers.get(p.target):
                continue
            key = (p.source, p.target)
            if key not in best_edge or (p.rank, -p.confidence) < (best_edge[key].rank, -best_edge[key].confidence):
                best_edge[key] = p
        return [p for p in best_edge.values() if p.confidence >= min_confidence]
