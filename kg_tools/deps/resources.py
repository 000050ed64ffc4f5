"""What a tool produces and what its parameters want, as resources and fields.

A *resource* is a noun (`playlist`, `device`, `pull request`); a *field* is how an instance of it is
named (`id`, `uri`, `number`, `name` ...), `*` when only the resource is known (a description says "Returns
a list of issues"). A producer offers (resource, field) at a field path of its output (`items[].id`); a
parameter wants one (`playlist_id` -> (playlist, id); `/albums?ids=` -> (album, id); `repo` -> (repository, *)).
Everything here is text and JSON Schema handling, no embeddings: it runs in linear time over a catalog.
The word lists were written by us from our own development specs (see docs/dependencies.md)."""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Collection, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache

from kg_tools.gateway.names import operation_id, split_gateway_name
from kg_tools.loaders.json_schema import write_only
from kg_tools.tool_spec import split_name

# How an instance of a resource is referred to. The plural forms map to the singular.
ID_FIELDS = {
    "id": "id",
    "ids": "id",
    "uri": "uri",
    "uris": "uri",
    "key": "key",
    "keys": "key",
    "number": "number",
    "sha": "sha",
    "slug": "slug",
    "handle": "handle",
    "uuid": "id",
    "identifier": "id",
    "guid": "id",
    "gid": "id",  # global ids (Asana), string ids (Twilio's sid), unique ids
    "sid": "id",
    "uid": "id",
    "iid": "id",  # an id internal to a project (GitLab issue_iid)
    "code": "code",
    "name": "name",
    "names": "name",
    "url": "url",
    "urls": "url",
    "username": "username",
    "login": "login",
    "email": "email",
    "ref": "ref",
    "token": "token",
    "path": "path",
}
# Fields that name an instance strongly enough to come from another tool without a resource word in the
# parameter's name (`id` on /albums/{id}); `name`/`url`/`email` need the resource word (`channel_name`).
STRONG_FIELDS = {
    "id",
    "uri",
    "key",
    "number",
    "sha",
    "slug",
    "handle",
    "code",
    "username",
    "login",
    "ref",
    "token",
    "path",
}
# Parameter names that are values a person gives, never another tool's output.
FREE_VALUES = {
    "idempotency key",  # the `Idempotency-Key` header: a value the caller makes up (eighth session)
    "q",
    "query",
    "limit",
    "offset",
    "page",
    "per page",
    "per_page",
    "market",
    "locale",
    "position",
    "description",
    "public",
    "collaborative",
    "type",
    "state",
    "title",
    "body",
    "content",
    "text",
    "message",
    "sort",
    "direction",
    "order",
    "since",
    "until",
    "before",
    "after",
    "fields",
    "include",
    "additional type",
    "country",
    "timestamp",
    "time range",
    "volume percent",
    "position ms",
    "range start",
    "insert before",
    "range length",
    "snapshot id",
    "play",
    "offset position",
    "label",
    "labels",
    "milestone",
    "assignee",
    "assignees",
    "head",
    "base",
    "draft",
    "language",
    "format",
    "mode",
    "value",
    "values",
    "comment",
    "password",
    "filter",
    "cursor",
    "max results",
    "start",
    "end",
    "date",
    "status",
    "reason",
}
# A noun that names the same resource as another (ours, from our development specs).
SYNONYMS = {
    "repo": "repository",
    "repos": "repository",
    "pr": "pull request",
    "pull": "pull request",
    "org": "organization",
    "dir": "directory",
    "msg": "message",
    "song": "track",
    "me": "user",
    "profile": "user",
    "owner": "user",
    "author": "user",
    "folder": "directory",
    "doc": "document",
    "db": "database",
    "ticket": "issue",
    "vm": "instance",
    "revision": "commit",
    "rev": "commit",
}
# Words in schema names and descriptions that are not the resource (`SimplifiedPlaylistObject`).
SCHEMA_NOISE = {
    "object",
    "simplified",
    "private",
    "public",
    "paging",
    "paged",
    "cursor",
    "saved",
    "response",
    "base",
    "full",
    "detail",
    "details",
    "result",
    "results",
    "list",
    "item",
    "items",
    "data",
    "model",
    "dto",
    "bean",  # a Java data class (`IssueBean`, `PageBeanProject`): the issue, the project
    "schema",
    "output",
    "info",
    "summary",
    "ref",
    "refs",
    "collection",
    "page",
    "wrapper",
    "entity",
    "resource",
    "set",
    "array",
    "several",
    "multiple",
    "linked",
    "current",
    "currently",
    "playing",
    "recently",
    "played",
    "new",
    "featured",
    "top",
    "available",
    "arguments",
    # the small one of a resource's schema variants (`ProjectCompact` beside `ProjectResponse`, `Template Lean`): the
    # resource itself
    "compact",
    "minimal",
    "lean",
    "slim",
    "condensed",
}
# the fields any instance carries: a want read as one of them (`name` of show_access_rule) has found no resource, and
# a reader named after it (`list_loki_label_names`) is named after a field (twenty-first session)
FIELD_WORDS = frozenset(w for w, f in ID_FIELDS.items() if f in ("id", "key", "name")) | {"type", "value"}
CALLER_WORDS = {"me", "my", "myself", "own", "self", "current", "whoami"}  # `get_current_user`, `Get_My_Own_Details`

STOP = {
    "a",
    "an",
    "the",
    "of",
    "for",
    "to",
    "and",
    "or",
    "by",
    "in",
    "on",
    "with",
    "from",
    "all",
    "any",
    "your",
    "my",
    "its",
    "their",
    "this",
    "that",
    "these",
    "those",
    "user's",
    "users",
    "current",
    "given",
    "specific",
    "one",
    "more",
    "some",
    "each",
    "every",
    "spotify",
    "catalog",
    "information",
    "info",
    "details",
    "detailed",
    "available",
    "several",
    "multiple",
    "only",  # "lists generated report exports only", "Return only the IDs specified": no resource
    "get",
    "list",
    "search",
    "find",
    "it",
    "is",
    "are",
}
LIST_VERBS = {"list", "search", "find", "query", "browse", "lookup", "discover", "explore", "enumerate", "paginate"}
GET_VERBS = {
    "get",
    "fetch",
    "read",
    "retrieve",
    "show",
    "view",
    "describe",
    "check",
    "download",
    "inspect",
    "load",
    "open",
    "lookup",
    "resolve",
}
CREATE_VERBS = {
    "create",
    "add",
    "new",
    "make",
    "insert",
    "upload",
    "post",
    "register",
    "start",
    "open",
    "generate",
    "build",
    "fork",
    "save",
    "follow",
    "submit",
    "write",
    "login",
    "authenticate",
    "sign",
}
CHANGE_VERBS = {
    "delete",
    "remove",
    "update",
    "set",
    "change",
    "edit",
    "patch",
    "put",
    "replace",
    "reorder",
    "modify",
    "toggle",
    "pause",
    "skip",
    "seek",
    "transfer",
    "unfollow",
    "move",
    "rename",
    "close",
    "merge",
    "cancel",
    "stop",
    "archive",
    "clear",
    "reset",
    "lock",
    "unlock",
    "assign",
    "dismiss",
    "mark",
    "send",
    "reply",
    "push",
    "apply",
    "run",
    "execute",
    "invoke",
    "trigger",
    "destroy",  # Rails' and Django REST framework's delete (`dcim_devices_destroy`)
    "deploy",
    "redeploy",
}
_DESCRIBES = re.compile(
    r"\b(?:returns?|lists?|gets?|retrieves?|fetch(?:es)?|search(?:es)?(?:\s+for)?|finds?|shows?|provides?|"
    r"gives?)\s+((?:[\w'-]+\s+){0,8}?[\w'-]+?)(?=[.,;:()\n]|\s+(?:for|by|in|from|with|that|which|matching|"
    r"based|on|of\s+the\s+(?:current|user)|including|using|via|within|whose|where|carrying|containing|having|"
    r"belonging|and\s+(?:their|its))\b|$)",
    re.I,
)


IRREGULAR = {
    "children": "child",
    "people": "person",
    "indices": "index",
    "entries": "entry",
    "statuses": "status",
    "aliases": "alias",
    "buses": "bus",
    "bonuses": "bonus",
    "viruses": "virus",
    "campuses": "campus",
    "movies": "movie",  # -ies of a singular in -ie, not -y (ninth session: `movies` was a "movy")
    "cookies": "cookie",
    "series": "series",
    "species": "species",
    "alias": "alias",  # singulars in -as, -is kept: an `alias_id` wants an alias, not an "alia"
    "canvas": "canvas",
    "canvases": "canvas",
    "atlas": "atlas",
    "bias": "bias",
    "analyses": "analysis",
    "shelves": "shelf",  # -ves plurals of -f/-fe nouns (not `archives`, `drives`, `leaves` of absence)
    "halves": "half",
    "knives": "knife",
    "wolves": "wolf",
    "apis": "api",  # plurals of nouns in -i, which the -is rule (`analysis`, `basis`) would keep
    "emojis": "emoji",
    "wikis": "wiki",
    "kpis": "kpi",
    "uris": "uri",
    "skus": "sku",  # plurals of nouns in -u, which the -us rule (`status`, `bonus`) would keep (twenty-fifth session)
    "cpus": "cpu",
    "gpus": "gpu",
    "vcpus": "vcpu",
    "menus": "menu",
    "quizzes": "quiz",  # a doubled z
    "caches": "cache",  # -ches of a singular in -che, not -ch (twenty-sixth session: Codemagic's `cach`)
}
# A container of things is about the things: "the commit logs" -> commit, "block children" -> block,
# "page history" -> page, "directory tree" -> directory.
CONTAINER_NOUNS = {"log", "history", "tree", "listing", "feed", "timeline", "child"}


@lru_cache(maxsize=65536)  # called millions of times on a large catalog, on a few thousand distinct words
def singular(word: str) -> str:
    """A rough English singular: playlists -> playlist, repositories -> repository, addresses -> address, topics
    -> topic (the -tics nouns, analytics and statistics, stay)."""
    w = word.lower()
    if w in IRREGULAR:
        return IRREGULAR[w]
    if len(w) <= 3 or w.endswith(("ss", "us", "is", "tics")):
        return w
    if w.endswith("ies"):
        return w[:-3] + "y"
    if w.endswith("zes") and not w.endswith(("zzes", "tzes")):
        return w[:-1]  # sizes -> size, prizes -> prize (buzzes -> buzz, waltzes -> waltz below)
    if w.endswith(("sses", "shes", "ches", "xes", "zes")):
        return w[:-2]
    if w.endswith("s"):
        return w[:-1]
    return w


def _split(text: str) -> list[str]:
    """A name's or text's words. Latin letters with marks are read as the ASCII letters they are written with
    (`getÑandúId` -> get, nandu, id; `straße` -> strasse; `ﬁle` -> file), not cut at every accent; other
    scripts are not read (`用户_id` -> id), as before."""
    if text.isascii():
        return re.findall(r"[a-z0-9]+", split_name(text))
    unmarked = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return re.findall(r"[a-z0-9]+", split_name(unmarked).casefold())


@lru_cache(maxsize=100_000)
def _words(text: str) -> tuple[str, ...]:
    return tuple(_split(text))


def words(text: str) -> list[str]:
    """Lower-case words of a name or text (camelCase and snake_case split, plurals kept)."""
    return list(_words(text)) if len(text) < 200 else _split(text)


def one_operation(a: str, b: str) -> bool:
    """Two names that differ only in case, separators or marks (`user_list`, `userList`; `café_list`, `cafe_list`):
    one operation written twice, neither the other's producer (each read as the other's reader: a 2-cycle). Names
    with no Latin word (`获取用户`, `создать`) tell nothing: not one operation for that."""
    return a == b or bool(said := words(a)) and said == words(b)


def resource_key(nouns: list[str]) -> str | None:
    """The resource a run of words names: its last two content words, singular, synonyms applied
    (`pull requests` -> `pull request`, `repos` -> `repository`); None when nothing is left."""
    content = [singular(w) for w in nouns if w not in STOP and w not in SCHEMA_NOISE and not w.isdigit()]
    content = [w for w in content if w not in FRAMEWORK_WORDS]
    if not content:
        return None
    while len(content) > 1 and content[-1] in CONTAINER_NOUNS:
        content = content[:-1]
    head = synonym(content[-1])
    if " " in head:  # the synonym is already a compound (pull -> pull request)
        return head
    if len(content) >= 2 and f"{content[-2]} {head}" in COMPOUNDS:
        return f"{content[-2]} {head}"
    return head


# words a framework writes into generated operation ids, never a resource of the API: NestJS's and StackStorm's
# `controller` (`AuditLogEventsController_create`, `st2api_controllers_v1_triggers_trigger_controller_get_all`)
FRAMEWORK_WORDS = {"controller"}


def parameter_resource(nouns: list[str]) -> str | None:
    """The resource a parameter's name words name; a word that is noise in schema titles still names one
    in a parameter (`entityNames` -> entity, `item_id` -> item)."""
    key = resource_key(nouns)
    if key is None and nouns and nouns[-1] not in STOP and not nouns[-1].isdigit():
        key = synonym(singular(nouns[-1]))
    return key


def synonym(word: str) -> str:
    """The resource a (singular) word names by SYNONYMS; a plural of three letters `singular` keeps (`vms`, `prs`,
    `dbs`) names what its two-letter singular does."""
    if word in SYNONYMS:
        return SYNONYMS[word]
    if len(word) == 3 and word.endswith("s") and word[:-1] in SYNONYMS:
        return SYNONYMS[word[:-1]]
    return word


# Two-word resources kept as one (a request of a pull, not "a request").
COMPOUNDS = {
    "pull request",
    "merge request",
    "audio feature",
    "user profile",
    "pull review",
    "code scanning",
    "secret scanning",
    "access token",
    "api key",
    "time zone",
    "phone number",
    "zip code",
    "country code",
    "postal code",
    "session token",
}


# Words that end the resource part of a schema title: `ListAudiencesResponseSuccess` is about audiences, not
# about a "success"; `CreateContactRequest` about a contact.
DIRECTION_TAIL = {"out", "input"}  # a model's direction at a title's end (`EndpointOut`, `UserInput`): not the thing
TITLE_TAIL = {"response", "responses", "request", "reply", "payload", "body", "envelope", "success", "error"}
# Words of a schema title that say how a model is coded, not what it is (`CollectionDto`, `CollectionObject`)
FORMAT_WORDS = {"dto", "object", "model", "schema", "bean", "entity", "data", "output", "wrapper"}


# what comes after qualifies what comes before (twenty-third session; `with`: `CommentWithExpandedUser` is a comment,
# twenty-fifth session)
TITLE_CUTS = {"by", "from", "with"}


@lru_cache(maxsize=20_000)
def schema_resource(title: str | None) -> str | None:
    """`SimplifiedPlaylistObject` -> playlist, `PagingSavedTrackObject` -> track, `DeviceObject` -> device,
    `ListAudiencesResponseSuccess` -> audience (the words before Response/Request/Success name the resource),
    `Categories_by_WorkspaceModel` -> category (what comes after "by" qualifies it, as after "from":
    `Ytd-Benefit-Amounts-From-Different-Company` -> amount, `SessionWithTraces` -> session), `EndpointOut` -> endpoint."""
    if not isinstance(title, str) or not title:
        return None
    ws = [re.sub(r"(?<=[a-z])\d+$", "", w) for w in words(title)]  # a numbered variant (`contact-details3`)
    cut = next((i for i, w in enumerate(ws) if (w in TITLE_TAIL or w in TITLE_CUTS) and i > 0), len(ws))
    if cut > 1 and ws[cut - 1] in DIRECTION_TAIL:
        cut -= 1
    return resource_key(ws[:cut])


# The path of an offer of one of the types a search across several types filters on (`item_search(item_types)`):
# it returns that type among others, so it goes after a tool about the resource (scoring.ranked).
ACROSS_TYPES = "(one of the types it searches across)"


@dataclass(frozen=True)
class Offer:
    """A producer's output holds (resource, field) at `path` (`items[].id`); `primary` when the resource is
    what the tool is about (not an object nested in another resource); `source` schema | description."""

    tool: str
    resource: str
    field: str
    path: str
    primary: bool
    source: str
    reference: bool = False  # a `<resource>_id` field of another object (a foreign key), not the resource itself
    listed: bool = False  # the output lists nothing but these identifiers (kg_tools/deps/idlists.py)


# A `url`/`uri` field whose schema declares a web address (`format: uri`): a webhook's target, an image, a homepage,
# a value the caller gives, not the handle of an instance another tool returns (docs/dependencies.md, twenty-first
# session: declared types that are not the offered id).
WEB_FIELDS = ("url", "uri")
WEB_FORMATS = {"uri", "url", "uri-reference", "iri", "iri-reference"}


def web_address(schema: object) -> bool:
    """A schema that declares a web address, by its own format or a non-null `anyOf`/`oneOf` member's."""
    if not isinstance(schema, dict):
        return False
    members = [m for key in ("anyOf", "oneOf") if isinstance(schema.get(key), list) for m in schema[key]]
    return any(isinstance(s, dict) and s.get("format") in WEB_FORMATS for s in [schema, *members])


def schema_offers(
    tool: str, schema: dict, *, root: str | None = None, max_nodes: int = 4000, max_depth: int = 12
) -> list[Offer]:
    """Walk an output JSON Schema (bounded) for identifying fields, each with its resource: the nearest
    schema title, else the property name that holds the object (`devices[]` -> device), else the parent's;
    `root`, what the tool is about, names an untitled top (`{"items": [{"id": …}]}` of `getCycles`)."""
    offers: dict[tuple[str, str], Offer] = {}
    hrefs: dict[tuple[str, str], Offer] = {}  # HAL links' hrefs: where no other field offers the same
    budget = [max_nodes]
    owners: dict[tuple[int, int], bool] = {}  # _has_own_identifier's answers: shared parts read once

    def titled(title: object) -> str | None:
        """The resource a title names; a title of noise words only (`Collection`, `CollectionDto`,
        `CollectionResponse`) that, but for its format words, is the word `root` names (`GET /collections`, whose
        root is a collection) names `root`."""
        named = schema_resource(title) if isinstance(title, str) else None
        if named is None and root and isinstance(title, str):
            every = [singular(w) for w in words(title)]
            core = [w for w in every if w not in TITLE_TAIL and w not in FORMAT_WORDS]
            if root in (" ".join(every), " ".join(core)):
                return root
        return named

    def walk(node, path: str, resource: str | None, chain: tuple[str, ...], depth: int, owned: bool = False) -> None:
        """`owned`: `node` is a part of an object whose other `allOf` parts hold its own identifier."""
        if not isinstance(node, dict) or depth > max_depth or budget[0] <= 0:
            return
        budget[0] -= 1
        for key in ("allOf", "anyOf", "oneOf"):  # allOf: parts of this object; anyOf/oneOf: what it may be
            members = node[key] if isinstance(node.get(key), list) else []
            parts_owned = owned or (key == "allOf" and _has_own_identifier(node, owners, max_depth))
            for member in members:
                title = titled(member.get("title")) if isinstance(member, dict) else None
                inner = (resource or title) if key == "allOf" else (title or resource)
                walk(member, path, inner, chain, depth + 1, parts_owned if key == "allOf" else False)
        if isinstance(node.get("items"), dict):
            item = node["items"]
            walk(item, path + "[]", titled(item.get("title")) or resource, chain, depth + 1)
        if isinstance(node.get("additionalProperties"), dict) and path:
            # a map keyed by id (`status.nodes` of a workflow): its values are instances of what the property names
            value = node["additionalProperties"]
            walk(value, path + "{}", resource_key(words(path.rsplit(".", 1)[-1])) or resource, chain, depth + 1)
        props = node.get("properties")
        if not isinstance(props, dict):
            return
        resource = typed_resource(props, path) or resource
        here = chain if resource is None or (chain and chain[-1] == resource) else chain + (resource,)
        if path and not chain and not owned and not any(own_identifier(n) for n in props):
            # a wrapper without an identifier of its own is the object it wraps: a guild member is its
            # `user`, a saved track its `track` (their ids are what the list is about)
            here = chain
        sole = None if path else _sole_prefixed_id(props, resource)  # the output itself names its handle
        for name, prop in props.items():
            if not isinstance(name, str) or write_only(prop):
                continue  # `writeOnly` (on itself or an `allOf` member): sent in requests only, never in a response
            sub = f"{path}.{name}" if path else name
            ws = words(name)
            field = ID_FIELDS.get(ws[-1]) if ws else None
            field = field or ("id" if ws == ["pk"] else None)  # Django REST's primary key: the object's own id
            if not field and path.endswith("[]") and self_named_field(ws, prop, resource):
                ws, field = [*ws, "name"], "name"  # `classes[].class`: the class's own name
            if (
                field
                and isinstance(prop, dict)
                and prop.get("type") not in ("object", "array", "boolean")
                and not (field in WEB_FIELDS and web_address(prop))
            ):
                owner = resource_key(ws[:-1]) if len(ws) > 1 else resource
                if owner:
                    reference = len(ws) > 1 and owner != resource and name != sole and not _named_for(ws[:-1], node)
                    primary = len(here) <= 1 and not reference
                    slot = (owner, field)
                    old = offers.get(slot)
                    rank = (not reference, primary, -len(sub))
                    if old is None or rank > (not old.reference, old.primary, -len(old.path)):
                        offers[slot] = Offer(tool, owner, field, sub, primary, "schema", reference)
            if name == "_links" and isinstance(prop, dict):
                for slot, offer in link_offers(tool, prop, sub, resource, len(here) <= 1).items():
                    hrefs.setdefault(slot, offer)
            if isinstance(prop, dict):
                title = prop.get("title") if prop.get("type") in ("object", None) or "allOf" in prop else None
                inner = titled(title) or (
                    resource_key(ws)
                    if prop.get("type") in ("object", "array")
                    or "items" in prop
                    or "properties" in prop
                    or "allOf" in prop
                    else None
                )
                if (
                    prop.get("type") == "array"
                    and isinstance(prop.get("items"), dict)
                    and titled(prop["items"].get("title"))
                ):
                    inner = resource_key(ws) or titled(prop["items"].get("title"))
                if _envelope(name, path, props):  # `_embedded.elements[]`, `attributes`: the object's own
                    inner = None
                walk(prop, sub, inner or resource, here, depth + 1)

    walk(schema, "", titled(schema.get("title")) or _untitled_root(schema, root), (), 0)
    return list((hrefs | offers).values())


ALL_VERBS = LIST_VERBS | GET_VERBS | CREATE_VERBS | CHANGE_VERBS


def link_offers(tool: str, links: dict, path: str, owner: str | None, primary: bool) -> dict[tuple[str, str], Offer]:
    """The ids HAL's `_links` hold in their hrefs (`/orders/123`): `self` is the object's own (below the response's
    top, whose `self` is the collection's or document's URL), `customer` (or `items[]`) a reference to a customer; not
    an action (`update`, `delete`) nor one link named in the plural (`categories`: a collection's)."""
    out = {}
    rels = links.get("properties")
    for rel, link in rels.items() if isinstance(rels, dict) else ():
        shape = _href_link(link) if isinstance(rel, str) and isinstance(link, dict) else None
        if shape is None:
            continue
        many = shape == "many"
        ws = words(rel)
        if not ws or ws[0] in ALL_VERBS or (not many and rel != "self" and singular(ws[-1]) != ws[-1]):
            continue
        if rel == "self" and path == "_links":  # the response's own link: a collection's or a document's URL
            continue
        resource = owner if rel == "self" else resource_key(ws)
        if resource:
            where = f"{path}.{rel}{'[]' if many else ''}.href"
            own = rel == "self"
            out[(resource, "id")] = Offer(tool, resource, "id", where, primary and own, "schema", not own)
    return out


def _envelope(name: str, path: str, siblings: dict) -> bool:
    """A property that holds the object's own content rather than another resource: HAL's `_embedded` and the list
    inside it (`_embedded.elements`), JSON:API's `attributes` beside its `type` and JSON:API's members only. An
    `elements` or `attributes` property elsewhere (a scene's elements, a product's attributes) is a resource."""
    if name == "_embedded":
        return True
    if name == "elements":
        return path.rsplit(".", 1)[-1] == "_embedded"
    return name == "attributes" and "type" in siblings and set(siblings) <= JSON_API_MEMBERS


TYPE_KEYS = ("type", "_type", "@odata.type")  # a discriminator whose one value names the object
JSON_API_MEMBERS = {"id", "type", "attributes", "relationships", "links", "meta", "lid"}


def _href_link(link: dict) -> str | None:
    """ "one" or "many" when a `_links` member is a link (an object with an `href`, or a list of them), else None."""
    many = isinstance(link.get("items"), dict)
    node = link["items"] if many else link
    members = node.get("allOf")
    parts = [node] + [m for m in (members if isinstance(members, list) else []) if isinstance(m, dict)]
    if not any(isinstance(m.get("properties"), dict) and "href" in m["properties"] for m in parts):
        return None
    return "many" if many else "one"


def typed_resource(props: dict, path: str = "") -> str | None:
    """The resource an object names by a one-value type discriminator next to its own identifier: HAL's `_type:
    WorkPackage`, OData's `@odata.type`, and `type` of JSON:API's `data` holding JSON:API's members only (a
    resource object or identifier, `data: {"id", "type": {"enum": ["provider-secrets"]}}`; elsewhere `type` may
    be a kind of another thing, a chapter typed `episode`). Else None."""
    if not any(own_identifier(n) for n in props):
        return None
    json_api = set(props) <= JSON_API_MEMBERS and path.removesuffix("[]").rsplit(".", 1)[-1] == "data"
    for key in TYPE_KEYS if json_api else TYPE_KEYS[1:]:
        enum = props[key].get("enum") if isinstance(props.get(key), dict) else None
        if isinstance(enum, list) and len(enum) == 1 and isinstance(enum[0], str):
            return resource_key(words(enum[0].rsplit(".", 1)[-1]))
    return None


def _untitled_root(schema: dict, root: str | None) -> str | None:
    """`root` names an untitled top that is an instance (an own identifier) or a bare wrapper (`{"items": [...]}`),
    not one whose titled `allOf` member names it, nor a wrapper of another collection (`{"messages": [...]}` of
    `get_channel_history`, `{"teams": [...]}` of `getStatsByTeam`)."""
    props = schema.get("properties")
    if isinstance(schema.get("items"), dict) and not isinstance(props, dict):
        return _untitled_root(schema["items"], root)  # a bare array of them
    if not root or not isinstance(props, dict):
        return None
    members = schema.get("allOf")
    if any(isinstance(m, dict) and m.get("title") for m in (members if isinstance(members, list) else ())):
        return None
    if any(own_identifier(n) for n in props):
        return root
    held = {
        resource_key(words(k))
        for k, v in props.items()
        if isinstance(k, str) and isinstance(v, dict) and (v.get("type") in ("object", "array") or "items" in v)
    }
    return root if held <= {None, root} else None


def self_named_field(ws: list[str], prop: object, resource: str | None) -> bool:
    """A string property named after the object that holds it (`classes[].class`, `tags[].tag`): the object's own
    name, as the path parameter `{className}` takes it (of a list's items only: a top's `{"policy": "..."}` is its
    content)."""
    return (
        isinstance(prop, dict)
        and prop.get("type") == "string"
        and not prop.get("enum")
        and resource is not None
        and resource_key(ws) == resource
    )


def _named_for(prefix: list[str], node: dict) -> bool:
    """`signature_request_id` of an object titled `SignatureRequestResponse`: its own id, though the title's resource
    is `signature` (`request` ends a title, as in `CreateContactRequest`) and the field's `request` (its last word).
    A prefix of two words or more, the title's first words."""
    mine = [singular(w) for w in prefix]
    title = node.get("title")
    leading = words(title)[: len(mine)] if isinstance(title, str) else []
    return len(mine) > 1 and [singular(w) for w in leading] == mine


def _sole_prefixed_id(props: dict, resource: str | None) -> str | None:
    """An output object with no identifier of its own (`id`, `key`, `<resource>_id`) and exactly one `<noun>Id` field
    (`{connectionId, message}` of a connect tool): that id is the handle the tool returns, not a reference to another
    object; a second one (`{userId, projectId}`) makes it a link of two. Only `id` fields (not `jwks_uri`)."""
    if any(own_identifier(n) for n in props):
        return None
    named = []
    for name, prop in props.items():
        ws = words(name) if isinstance(name, str) else []
        if len(ws) > 1 and ID_FIELDS.get(ws[-1]) and isinstance(prop, dict):
            if resource_key(ws[:-1]) == resource:
                return None  # `alarm_name` of an alarm: its own, and `metric_name` beside it a reference
            if prop.get("type") not in ("object", "array", "boolean"):
                named.append(name)
    sole = len(named) == 1 and ID_FIELDS.get(words(named[0])[-1]) == "id"  # not a `jwks_uri`, `defaultLongUrl`
    return named[0] if sole else None


def own_identifier(name) -> bool:
    """`id`, `uri`, `key` ... alone: the object's own identifier (not `user_id`, a reference)."""
    ws = words(name) if isinstance(name, str) else []
    return len(ws) == 1 and ID_FIELDS.get(ws[0]) in STRONG_FIELDS


def _has_own_identifier(node: dict, seen: dict[tuple[int, int], bool], depth: int = 12) -> bool:
    """An object, or one of its `allOf` parts down to `depth` (a spec that keeps `{id}` apart from the rest, MISP's
    `Event` of `{"allOf": [{"properties": {"id"}}, {"properties": {"Tag", "Org", ...}}]}`), has its own identifier.
    `seen` holds the answers by node and depth left (a part shared at two depths may see its id at one only): each
    read once; an `allOf` made of itself ends where the depth does."""
    key = (id(node), depth)
    if key not in seen:
        props = node.get("properties")
        members = node.get("allOf") if depth > 0 else None
        seen[key] = (isinstance(props, dict) and any(own_identifier(n) for n in props)) or any(
            isinstance(m, dict) and _has_own_identifier(m, seen, depth - 1)
            for m in (members if isinstance(members, list) else ())
        )
    return seen[key]


def _split_on(ws: list[str], joint: str) -> list[list[str]]:
    if joint not in ws:
        return [ws]
    i = ws.index(joint)
    return [ws[:i], ws[i + 1 :]]


# A parameter's description that says where its value comes from: "Exact target element reference from the
# page snapshot", "1-based index of the request, as printed by browser_network_requests"; not a possessive, which
# names the owner of the source ("extract it from the repository's git remote URL": no repository tool; "from the
# git repository's URL": no git tool either, the second word is not given back).
_COMES_FROM = re.compile(
    r"\b(?:from|returned by|printed by|listed by|given by|output of)\s+(?>(?:the\s+|a\s+|an\s+)?)"
    r"([a-z][\w-]*+(?:\s+[a-z][\w-]*+)?+)(?!['’]s\b)",
    re.I,
)


def source_phrases(text: str) -> list[str]:
    """The noun phrases a parameter's description names as the value's origin ("page snapshot")."""
    return [m.group(1).lower() for m in _COMES_FROM.finditer(text or "")]


# "The text that the API compares page and database titles against": a search over pages and databases.
_SEARCHED = re.compile(r"\b([a-z]+)(?:\s+(?:and|or)\s+([a-z]+))?\s+(?:titles|names)\b", re.I)


# "Simple search for documents matching a text query across all files in the vault": it searches files.
_SEARCHED_ACROSS = re.compile(r"\bacross\s+(?:all\s+)?(?:the\s+)?([a-z]+)\b()", re.I)


def searched_resources(text: str) -> list[str]:
    """What a search's query is compared against: the resources whose titles or names it matches, or that it
    searches across."""
    out = []
    for m in [*_SEARCHED.finditer(text or ""), *_SEARCHED_ACROSS.finditer(text or "")]:
        for w in m.groups():
            key = parameter_resource([w.lower()]) if w else None
            if key and key not in out:
                out.append(key)
    return out


# "discover available lists before creating contacts", "the tax rates to be used when creating invoices": a clause
# that says when to call the tool, not what it returns; the words from it on name nothing returned.
_WHEN_CLAUSE = {"before", "after", "when", "while"}


def _before_when_clause(ws: list[str]) -> list[str]:
    """The words before a "before / after / when / while <verb>ing" clause (all of them if there is none)."""
    cut = next((i for i, w in enumerate(ws[:-1]) if w in _WHEN_CLAUSE and ws[i + 1].endswith("ing")), len(ws))
    return ws[:cut]


def _proper_name(said: str, ws: list[str]) -> bool:
    """One word written capitalized (`Reddit` of "all of Reddit"): a name, not a noun of a resource; not a plural
    (a title-cased summary: "Returns a list of Addresses", "fetch a list of Customers")."""
    return len(ws) == 1 and singular(ws[0]) == ws[0] and re.search(rf"\b{ws[0].capitalize()}\b", said) is not None


def described_resources(text: str) -> list[str]:
    """Resources a description says the tool returns ("Returns a list of issues ..." -> [issue]); none named only in
    a clause of when to call it ("... lists before creating contacts")."""
    found = []
    for match in _DESCRIBES.finditer(text or ""):
        ws = _before_when_clause(re.findall(r"[a-z0-9]+", match.group(1).lower()))
        if "of" in ws:  # "a list of issues", "details of the repository"
            ws = ws[len(ws) - ws[::-1].index("of") :]
            if _proper_name(match.group(1), ws):
                continue  # "Search all of Reddit": the product searched, no resource
        parts = [ws]
        for joint in ("and", "or"):  # "files and directories" -> file, directory
            parts = [q for part in parts for q in _split_on(part, joint)]
        for part in parts:
            key = resource_key(part) or _generic_plural(part)
            if key and key not in found:
                found.append(key)
    return found[:3]


_INCLUDES = re.compile(
    r"\b(?:including|with\s+(?:its|their|all)|along\s+with)\s+((?:[\w'-]+\s+){0,5}?[\w'-]+?)(?=[.,;:()\n]|\s+(?:for|by|"
    r"in|from|with|that|which|of)\b|$)",
    re.I,
)
# "Get board schema (columns and groups)", "their relevant items (boards, folders, workspaces)": a list of plurals.
_LISTED_IN_BRACKETS = re.compile(
    r"\(\s*([a-z]+(?:\s*,\s*[a-z]+)*,?\s+(?:and|or)\s+[a-z]+|[a-z]+(?:\s*,\s*[a-z]+)+)\s*\)", re.I
)
_INCLUDED_ID = re.compile(r"\bincluding\s+(?:the\s+|its\s+|their\s+|a\s+)?(?:[a-z]+\s+)?([a-z]+)\s+ids?\b", re.I)


def included_resources(text: str) -> list[str]:
    """Resources a description says come inside what the tool returns ("… a server including channels and member
    count" -> [channel], "board schema (columns and groups)" -> [column, group], "including default workspace ID"
    -> [workspace]): plural nouns or a noun's id, a count or a detail is no instance."""
    found = []
    lists = [m.group(1) for m in _INCLUDES.finditer(text or "")]
    lists += [m.group(1) for m in _LISTED_IN_BRACKETS.finditer(text or "")]
    for listed in lists:
        ws = re.findall(r"[a-z0-9]+|,", listed.lower())
        parts = [q for p in _split_all(ws, ",") for r in _split_on(p, "and") for q in _split_on(r, "or")]
        for part in parts:
            key = _generic_plural(part[-1:]) if part and part[-1] != "ones" else None
            if key and key not in found:
                found.append(key)
    for m in _INCLUDED_ID.finditer(text or ""):
        key = parameter_resource([m.group(1).lower()]) if m.group(1).lower() not in STOP else None
        if key and key not in found:
            found.append(key)
    return found[:3]


def _split_all(ws: list[str], joint: str) -> list[list[str]]:
    out: list[list[str]] = [[]]
    for w in ws:
        if w == joint:
            out.append([])
        else:
            out[-1].append(w)
    return [p for p in out if p]


ANY_THING = {"resource", "resources", "object", "objects", "thing", "things"}  # "the name of the resource": any


def _generic_plural(part: list[str]) -> str | None:
    """A lone generic plural still says what comes back ("Find items carrying tags" -> item)."""
    if len(part) != 1 or part[0] in STOP or singular(part[0]) == part[0]:
        return None
    return parameter_resource(part)


def compound_head(nouns: list[str], known: Collection[str]) -> str | None:
    """Two nouns that each name a resource of the catalog name the second, a kind of thing of the first ("the rule
    group": a group of rules, where the catalog has both rules and groups); None otherwise, and for a second word that
    is an id, a name or any thing ("the display name", "the user IDs", "the event object"; "the coupon code" is one)."""
    if len(nouns) < 2 or nouns[1] in STOP | ANY_THING or ID_FIELDS.get(nouns[1]) in ("id", "name"):
        return None
    first, head = parameter_resource(nouns[:1]), parameter_resource(nouns[1:2])
    return head if first in known and head in known and head != first else None


NEW_VALUE = {"new"}  # "new name (empty = leave alone)": the value to set, no resource's name


def described_owner(text: str, field: str, own: str = "", known: Collection[str] = ()) -> str | None:
    """The resource a bare identifier's description names right before the field: "An array of entity
    names to retrieve" -> entity (for `names`), "the track URIs" -> track (for `uris`); else right after the field
    or the parameter's own word and `of`: "The name of the node" -> node, "The fullname of the item" -> item, "ID of
    the rule group" -> group when the catalog has both (`compound_head`)."""
    ws = words(text) if text else []
    for i in range(1, len(ws)):
        if ID_FIELDS.get(ws[i]) == field and ws[i - 1] not in STOP | NEW_VALUE:
            return resource_key(ws[max(0, i - 2) : i]) or parameter_resource(ws[i - 1 : i])
    for i in range(len(ws) - 2):
        if (ID_FIELDS.get(ws[i]) == field or ws[i] == own) and ws[i + 1] == "of":
            nouns = [w for w in ws[i + 2 : i + 5] if w not in ("the", "a", "an")][:2]
            if nouns and nouns[0] not in STOP | ANY_THING:
                return compound_head(nouns, known) or parameter_resource(nouns[:1])
    if ws[:1] == ["the"] and len(ws) > 2 and ws[2] == "to" and ws[1] not in ID_FIELDS:
        return parameter_resource(ws[1:2])  # "The index to describe."
    return None


HTTP_METHOD_WORDS = {"get", "post", "put", "patch", "delete"}


def name_verb_and_object(name: str) -> tuple[str | None, list[str]]:
    """`list_issues` -> (list, [issues]); `get-a-users-available-devices` -> (get, [...devices]);
    `server__search_repositories` -> (search, [repositories]); the object before the verb: `project-create` ->
    (create, [project]), `erpnext_delivery_note_get` -> (get, [delivery, note]) (`erpnext` the catalog's prefix,
    see catalog_names), `project.all` -> (list, [project])."""
    verb, ws = _verb_and_object(function_name(name), current_prefix())
    return verb, list(ws)


# Verbs that end a name after its object, tRPC- and RPC-style (`project.all`, `project.one`, `users.info`).
TRAILING_VERBS = {"all": "list", "one": "get", "info": "get"}
LEADING_AT = 3  # a verb among a name's first words opens it (`linear_create_issue`, `erpnext_account_list`)


@lru_cache(maxsize=65536)
def _verb_and_object(name: str, prefix: frozenset[str]) -> tuple[str | None, list[str]]:
    ws = words(split_gateway_name(name)[1])
    if _noun_verb_pair(ws):  # `trigger_get`: a trigger read, not `get` triggered
        return ws[1], _object_before(ws[:1], prefix, ws[1])
    for i, w in enumerate(ws[:LEADING_AT]):
        if w in ALL_VERBS:
            if w in HTTP_METHOD_WORDS and i + 1 < len(ws) and ws[i + 1] in LIST_VERBS:
                return ws[i + 1], _unpaged(ws[i + 2 :])  # `API-post-search`: a search sent as a POST
            if i + 1 < len(ws) or not i:
                return w, _unpaged(ws[i + 1 :])
            return w, _object_before(ws[:i], prefix, w)  # `project-create`, `erpnext_account_list`
    at = next((i for i in range(LEADING_AT, len(ws)) if ws[i] in ALL_VERBS), None)
    if at is not None:  # `dcim_device_roles_list`, `WorkflowService_ListWorkflows`
        after = ws[at + 1 :]
        if after and after[0] not in NAME_CUTS:
            return ws[at], _unpaged(after)
        return ws[at], _object_before(ws[:at], prefix, ws[at])
    if len(ws) > 1 and ws[-1] in TRAILING_VERBS:
        verb = TRAILING_VERBS[ws[-1]]
        return verb, _object_before(ws[:-1], prefix, verb)
    return None, _unpaged(ws)


# verbs that never name a thing (`trigger_get`, `check_cancel`) and those that open names of their object (`create_update`)
TRAILING_ONLY = {"get", "retrieve", "fetch", "create", "update", "delete", "remove", "cancel"}
OPENING_VERBS = {"get", "list", "create", "update", "delete", "add", "remove", "edit", "modify", "set", "fetch", "read"}


def _noun_verb_pair(ws: list[str]) -> bool:
    """Two words, the second a verb that names no thing, the first a verb that is also a noun (`trigger_get`,
    `upload_retrieve`, `check_cancel`): the object first, as `project_get`; not `create_update` (an update made)."""
    return len(ws) == 2 and ws[1] in TRAILING_ONLY and ws[0] in ALL_VERBS and ws[0] not in OPENING_VERBS


NAME_CUTS = {"by", "for", "from", "in", "of", "with"}  # `getCycleById`, `get_issues_for_project`: before the cut


def _object_before(ws: list[str], prefix: frozenset[str], verb: str) -> list[str]:
    """The object of a name that puts it before its verb, the catalog's prefix dropped; the collection's name a
    verb of one instance addresses is that instance's (`emails_get`: an email)."""
    for _ in range(PREFIX_LEVELS):
        if ws and ws[0] in prefix:
            ws = ws[1:]
    if ws and verb not in LIST_VERBS:
        ws = [*ws[:-1], singular(ws[-1])]
    return ws


VERSION_WORD = re.compile(r"v\d+")  # `getPostInstallScriptsV1`, `list_items_v3`: a version, no noun


def name_heads(name: str) -> set[str]:
    """The head nouns of a tool name (singular): the last word of its object (name_verb_and_object, so `<verb>_<x>`,
    `<x>_<verb>`, camelCase and kebab names read alike) before a cut word (`getTasksForProject` -> task), version and
    identifier words skipped; one per part joined by and/or (`list_vessels_and_crews` -> vessel, crew). Empty when
    nothing is left."""
    _, ws = name_verb_and_object(name)
    ws = [w for w in ws if not VERSION_WORD.fullmatch(w)]
    ws = ws[: next((i for i, w in enumerate(ws) if w in NAME_CUTS), len(ws))]
    heads = set()
    for part in " ".join(ws).replace(" or ", " and ").split(" and "):
        nouns = [w for w in part.split() if ID_FIELDS.get(w) != "id"]
        if nouns:
            heads.add(singular(nouns[-1]))
    return heads


MIN_PREFIX_NAMES = 3
PREFIX_LEVELS = 2  # a catalog's prefix is at most two words (`api_v1_`)
# one catalog's prefix words per thread (or task) that parses its names: inferences running side by side keep theirs
_CATALOG_PREFIX: ContextVar[frozenset[str]] = ContextVar("catalog_prefix", default=frozenset())


def prefix_words(tools: Iterable) -> frozenset[str]:
    """The words a catalog's names open with that name no object: the product's or server's (`erpnext_`, `jira_`,
    `api_v1_`). Such a word begins several names, is no word of any parameter's name (a resource's are:
    `project-create` and `projectId`) and no verb, and begins most of the catalog's names or, in most of those it
    begins, comes before a verb and its object (`confluence_get_page`, not `letter_create`)."""
    tools = list(tools)
    taken = {singular(w) for t in tools for p in t.parameters for w in words(str(p.get("name") or ""))}
    lists = [words(split_gateway_name(t.name, operation_id(t))[1]) for t in tools]  # generated names as they are
    out: set[str] = set()
    for at in range(PREFIX_LEVELS):
        begun: dict[str, list[list[str]]] = defaultdict(list)
        for ws in lists:
            if len(ws) > at + 1 and all(w in out for w in ws[:at]):
                begun[ws[at]].append(ws[at + 1 :])
        out.update(w for w, rests in begun.items() if _opens_as_prefix(w, rests, len(lists), taken))
    return frozenset(out)


def _opens_as_prefix(word: str, rests: list[list[str]], names: int, taken: set[str]) -> bool:
    """Whether `word`, opening the names whose remaining words are `rests` among `names` names, is a prefix word
    (see prefix_words)."""
    if len(rests) < MIN_PREFIX_NAMES or singular(word) in taken or word in ALL_VERBS or word in TRAILING_VERBS:
        return False
    verb_first = sum(1 for r in rests if len(r) > 1 and r[0] in ALL_VERBS)
    return 2 * len(rests) > names or 2 * verb_first > len(rests)


def current_prefix() -> frozenset[str]:
    """The prefix words of the catalog whose names are being parsed (see catalog_names)."""
    return _CATALOG_PREFIX.get()


@contextmanager
def catalog_names(tools: Iterable) -> Iterator[None]:
    """Names parsed while inside are those of one catalog (or server), tools with a name and parameters: its prefix
    words are no object (see prefix_words), its generated operationIds are read as their function's name (see
    generated_functions)."""
    tools = list(tools)
    token = _CATALOG_PREFIX.set(prefix_words(tools))
    functions = _FUNCTIONS.set(generated_functions(tools))
    try:
        yield
    finally:
        _CATALOG_PREFIX.reset(token)
        _FUNCTIONS.reset(functions)


_FUNCTIONS: ContextVar[dict[str, str] | None] = ContextVar("generated_functions", default=None)


_HTTP = ("path", "method")


def generated_functions(tools: Iterable) -> dict[str, str]:
    """name -> its function's name, for HTTP operations named by an operationId a framework generated as
    `<function><path>_<method>` with every other character than a letter, digit or `_` written `_` (FastAPI:
    `read_flow_flows__id__get` of GET /flows/{id} -> `read_flow`); the name may be the operationId cut short."""
    out = {}
    for t in tools:
        http = getattr(getattr(t, "spec", None), "http", None) or getattr(t, "http", None)
        path, method = (str((http.get(k) if isinstance(http, dict) else getattr(http, k, "")) or "") for k in _HTTP)
        op = operation_id(getattr(t, "spec", None)) or operation_id(t)
        suffix = re.sub(r"\W", "_", path) + "_" + method.lower()
        if path and method and op.endswith(suffix) and op.startswith(t.name) and len(t.name) > len(op) - len(suffix):
            if function := op[: -len(suffix)].strip("_"):
                out[t.name] = function
    return out


def tool_part(name: str) -> str:
    """What a name says of its tool: a generated operationId's function (generated_functions), a gateway name's
    tool part (`get_issue` of `github__get_issue`), else the name."""
    return (_FUNCTIONS.get() or {}).get(name) or split_gateway_name(name)[1]


def name_words(name: str) -> frozenset[str]:
    """The words of what a name says of its tool, singular (`show_dns_domains`: dns, domain)."""
    return frozenset(singular(w) for w in words(tool_part(name)))


def function_name(name: str) -> str:
    """A generated operationId's function (generated_functions), another name as it is."""
    return (_FUNCTIONS.get() or {}).get(name) or name


PAGE_WORDS = {"page", "paged", "paginated"}


def _unpaged(ws: list[str]) -> list[str]:
    """A pagination word after a plural ends no name of a thing: `get_board_items_page`, `...VersionsPaginated`
    are about items, versions (one page of them), not about a page."""
    return ws[:-1] if len(ws) >= 2 and ws[-1] in PAGE_WORDS and singular(ws[-2]) != ws[-2] else ws
