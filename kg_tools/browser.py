"""Neo4j Browser support: the guide and the GraSS style shipped in kg_tools/browser_guide/.

Who serves them: the REST API (`kg-tools up`, which `scripts/run` calls, or `kg-tools serve`) mounts
the directory at /browser-guide/ with CORS, because Neo4j serves no static files of its own and the
Browser fetches guides and styles from the user's browser (cross-origin, on loopback, no internet).
The local server's neo4j.conf runs `:style` and `:play` on connect (`browser.post_connect_cmd`) and
allows the host (`browser.remote_content_hostname_whitelist`: Neo4j 5.26 and Browser 5.24 still use
the `whitelist` name; an `allowlist` setting would be rejected by the strict config validation).
"""

from __future__ import annotations

from pathlib import Path

GUIDE_DIR = Path(__file__).parent / "browser_guide"
MOUNT_PATH = "/browser-guide"
GUIDE_FILE = "kg-tools.html"
STYLE_FILE = "kg-tools.grass"
# Browser 5.x compares the URL's hostname only (no port) with this comma-separated list.
ALLOWED_HOSTS = "127.0.0.1,localhost"


def api_base_url(host: str, port: int) -> str:
    """The URL a browser on this machine uses for the API (a wildcard bind is reached on loopback)."""
    if host in ("0.0.0.0", "::", ""):
        host = "127.0.0.1"
    return f"http://{host}:{port}"


def guide_url(base_url: str) -> str:
    return f"{base_url.rstrip('/')}{MOUNT_PATH}/{GUIDE_FILE}"


def style_url(base_url: str) -> str:
    return f"{base_url.rstrip('/')}{MOUNT_PATH}/{STYLE_FILE}"


def post_connect_cmd(base_url: str) -> str:
    """What Browser runs after connecting (commands without the leading colon, `;`-separated)."""
    return f"style {style_url(base_url)}; play {guide_url(base_url)}"


def neo4j_conf_lines(base_url: str, allowed_hosts: str = ALLOWED_HOSTS) -> str:
    # No product-usage telemetry from the Browser either (loopback server, no internet; hides its banner).
    return (
        f"browser.post_connect_cmd={post_connect_cmd(base_url)}\n"
        f"browser.remote_content_hostname_whitelist={allowed_hosts}\n"
        "client.allow_telemetry=false\n"
    )


def guide_app(exception_handlers: dict | None = None):
    """The guide directory as a small ASGI app: static files, readable cross-origin. `exception_handlers`:
    Starlette's, e.g. the API's JSON `Error` body for an unknown file (404).

    The Browser fetches the guide with `pragma`/`cache-control` headers (a CORS preflight) and may
    run on another origin (Docker, Aura over https): any origin may read these public files, no
    credentials; preflights also allow a private-network (loopback) request from a public page
    (Starlette's `allow_private_network`)."""
    from starlette.applications import Starlette  # noqa: PLC0415 - on first use: the CLI starts without it
    from starlette.middleware import Middleware  # noqa: PLC0415 - on first use: the CLI starts without it
    from starlette.middleware.cors import CORSMiddleware  # noqa: PLC0415 - on first use: the CLI starts without it
    from starlette.routing import Mount  # noqa: PLC0415 - on first use: the CLI starts without it
    from starlette.staticfiles import StaticFiles  # noqa: PLC0415 - on first use: the CLI starts without it

    return Starlette(
        routes=[Mount("/", StaticFiles(directory=GUIDE_DIR))],
        exception_handlers=exception_handlers,
        middleware=[
            Middleware(
                CORSMiddleware,
                allow_origins=["*"],
                allow_methods=["GET", "HEAD"],
                allow_private_network=True,
                allow_headers=["pragma", "cache-control", "content-type"],
                max_age=600,
            )
        ],
    )


def instructions(base_url: str, local_conf: Path | None = None) -> str:
    """`kg-tools browser-guide`: the URLs and how to use them on any Neo4j."""
    # Default Browser allowlists contain `localhost` (not 127.0.0.1): use it for servers we did not configure.
    localhost = base_url.replace("://127.0.0.1", "://localhost")
    cmd = post_connect_cmd(localhost)
    lines = [
        f"Guide: {guide_url(base_url)}",
        f"Style: {style_url(base_url)}",
        "Served by the REST API: `kg-tools up` (what scripts/run does) or `kg-tools serve`.",
        "",
        "Local Neo4j of `kg-tools neo4j install/start`: runs both on connect"
        + (f" ({local_conf})." if local_conf else "."),
        "",
        "Any Neo4j Browser (Docker, Aura, Desktop): run in the Browser's editor",
        f"  :style {style_url(localhost)}",
        f"  :play {guide_url(localhost)}",
        "Browser fetches these URLs from your machine, so the API must run where the browser runs;",
        "the default allowlist (guides.neo4j.com,localhost) already allows localhost.",
        "",
        "Docker (neo4j:5.26), on connect:",
        f"  -e NEO4J_browser_post__connect__cmd='{cmd}'",
        f"  -e NEO4J_browser_remote__content__hostname__whitelist='{ALLOWED_HOSTS}'",
        "Your own neo4j.conf, on connect:",
        f"  browser.post_connect_cmd={cmd}",
        f"  browser.remote_content_hostname_whitelist={ALLOWED_HOSTS}",
        "Aura: its settings cannot be changed; run the two commands above. An https page may fetch",
        "http://localhost (browsers treat loopback as secure); the API answers the private-network preflight.",
    ]
    return "\n".join(lines)
