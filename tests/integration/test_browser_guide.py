"""The Neo4j Browser guide and style, checked in a real headless Chromium (Debian's package, driven by
selenium with the Debian chromedriver; nothing downloads a browser). The test server's neo4j.conf
(tests/conftest.py) runs `:style` and `:play` on connect; the API started here serves both."""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import threading
import time

import httpx
import pytest
import uvicorn
from click.testing import CliRunner
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

from kg_tools import PROJECT_ROOT
from kg_tools.api.app import create_app
from kg_tools.browser import GUIDE_DIR, GUIDE_FILE, STYLE_FILE, guide_url, style_url
from kg_tools.cli import cli
from kg_tools.ingest import load_catalog

pytestmark = pytest.mark.integration
OUT = PROJECT_ROOT / "out"
FIRST_TOOL = "share_location_via_email"


def _grass_rules(text: str) -> dict[str, dict[str, str]]:
    """selector -> {property: value} of a GraSS file (the Browser's syntax: CSS-like, quoted captions)."""
    return {
        sel.strip(): {
            k.strip(): v.strip().strip('"') for k, v in (p.split(":", 1) for p in body.split(";") if ":" in p)
        }
        for sel, body in re.findall(r"([^{}]+)\{([^}]*)\}", text)
    }


def _guide_block(block_id: str) -> str:
    """The text of a runnable block of the shipped guide, as the Browser runs it."""
    source = (GUIDE_DIR / GUIDE_FILE).read_text()
    match = re.search(rf'<pre[^>]*id="{block_id}"[^>]*>(.*?)</pre>', source, re.S)
    return html.unescape(match.group(1)).strip()


def _install_chromium() -> tuple[str, str]:
    """Paths of chromium and chromedriver; installs Debian's packages when missing and we may."""
    found = shutil.which("chromium"), shutil.which("chromedriver")
    if all(found):
        return found
    if not shutil.which("apt-get"):
        pytest.skip("chromium/chromedriver are not installed and this system has no apt-get")
    if os.geteuid() != 0:
        pytest.skip(
            "chromium/chromedriver are not installed and installing them needs root: "
            "sudo apt-get install -y chromium chromium-driver"
        )
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for cmd in (["apt-get", "update"], ["apt-get", "install", "-y", "chromium", "chromium-driver"]):
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
        if proc.returncode != 0:
            pytest.skip(f"could not install chromium ({' '.join(cmd)}): {(proc.stdout + proc.stderr)[-500:]}")
    found = shutil.which("chromium"), shutil.which("chromedriver")
    if not all(found):
        pytest.skip("apt-get installed chromium but chromium/chromedriver are not on PATH")
    return found


@pytest.fixture(scope="module")
def guide_api(neo4j_service, settings, graph, embedder):
    """The REST API (which serves the guide) on the port the test server's neo4j.conf names."""
    if not neo4j_service.guide_port:
        pytest.skip(
            f"the Neo4j of this run ({neo4j_service.how}) was not configured by the project, "
            "so its Browser does not run the guide on connect"
        )

    app = create_app(settings, graph=graph, embedder=embedder)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=neo4j_service.guide_port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{neo4j_service.guide_port}"
    deadline = time.monotonic() + 60
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the API serving the guide did not start")
        time.sleep(0.2)
    yield base
    server.should_exit = True
    thread.join(timeout=10)


def test_neo4j_conf_runs_style_and_guide_on_connect(guide_api, graph):
    """The real server accepted the settings and reports them to the Browser (dbms.clientConfig)."""
    config = {r["name"]: r["value"] for r in graph.read("CALL dbms.clientConfig()")}
    assert config["browser.post_connect_cmd"] == f"style {style_url(guide_api)}; play {guide_url(guide_api)}"
    assert set(config["browser.remote_content_hostname_whitelist"].split(",")) >= {"127.0.0.1", "localhost"}


def test_guide_shows_what_an_imported_catalog_said(graph, embedder):
    """The guide's block for MCP annotations / OpenAPI method, path, tags reads the node properties a load writes."""

    tool = {
        "name": "guide_list_playlists",
        "description": "Get the current user's playlists.",
        "title": "Playlists",
        "annotations": {"readOnlyHint": True},
        "http": {"method": "GET", "path": "/me/playlists", "tags": ["P"]},
        "output_schema": {"type": "object"},
    }
    load_catalog(graph, embedder, [tool], "guide-facts", log=lambda *_: None)
    try:
        row = graph.read(_guide_block("tool-facts"), tool="guide_list_playlists")[0]
        assert (
            row["title"],
            row["method"],
            row["path"],
            row["tags"],
            row["read_only"],
            row["output_schema"],
            row["destructive"],
        ) == ("Playlists", "GET", "/me/playlists", ["P"], True, True, None)
    finally:
        graph.write("MATCH (t:Tool {catalog: 'guide-facts'}) DETACH DELETE t")


def test_guide_and_style_are_served_cross_origin(guide_api, neo4j_service):
    origin = neo4j_service.http_url
    style = httpx.get(style_url(guide_api), headers={"Origin": origin})
    assert style.status_code == 200 and style.headers["access-control-allow-origin"] == "*"
    assert style.text == (GUIDE_DIR / STYLE_FILE).read_text()
    # The Browser fetches guides with pragma/cache-control headers: a preflight first.
    preflight = httpx.options(
        guide_url(guide_api),
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "pragma,cache-control",
        },
    )
    assert preflight.status_code == 200, preflight.text
    guide = httpx.get(guide_url(guide_api), headers={"Origin": origin, "pragma": "no-cache"})
    assert guide.status_code == 200 and "<slide" in guide.text and 'class="code runnable"' in guide.text
    assert httpx.get(f"{guide_api}/browser-guide/../pyproject.toml").status_code == 404


def test_browser_shows_guide_on_connect_and_styles_first_step(guide_api, neo4j_service, tlos):
    chromium, chromedriver = _install_chromium()
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is installed by `pip install -e .[test]`")

    rules = _grass_rules((GUIDE_DIR / STYLE_FILE).read_text())
    closure = tlos.read_plain(_guide_block("kg-step-closure"), {"tool": FIRST_TOOL})
    expected = {n["name"]: set(n.labels) for r in closure for n in r["p"].nodes}
    assert FIRST_TOOL in expected and any("Core" in labels for labels in expected.values())

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1400,1000",
        "--no-first-run",
    ):
        options.add_argument(arg)
    os.environ.setdefault("SE_OFFLINE", "true")  # selenium-manager must never download a driver or browser
    driver = webdriver.Chrome(service=Service(chromedriver), options=options)
    OUT.mkdir(exist_ok=True)
    try:
        wait = WebDriverWait(driver, 90)
        driver.get(f"{neo4j_service.http_url}/browser/")
        # present is not enough: the form can be in the page before it takes input (a CI run failed so)
        password = wait.until(ec.element_to_be_clickable((By.CSS_SELECTOR, "input[data-testid=password]")))
        # The connect form is pre-filled from the server's discovery document (its advertised Bolt address).
        address = driver.find_element(By.CSS_SELECTOR, "input[data-testid=boltaddress]")
        assert address.get_attribute("value") == neo4j_service.uri.split("://", 1)[1]
        user = wait.until(ec.element_to_be_clickable((By.CSS_SELECTOR, "input[data-testid=username]")))
        user.clear()
        user.send_keys(neo4j_service.user)
        password.send_keys(neo4j_service.password)
        driver.find_element(By.CSS_SELECTOR, "[data-testid=connect]").click()

        # On connect: the guide opened (its first slide) and the style frame shows no error.
        title = wait.until(ec.visibility_of_element_located((By.ID, "kg-tools-guide-title")))
        assert title.text == "kg-tools: the tool graph"
        commands = [f.text for f in driver.find_elements(By.CSS_SELECTOR, "[data-testid=frameCommand]")]
        assert f":play {guide_url(guide_api)}" in commands and f":style {style_url(guide_api)}" in commands
        assert not driver.find_elements(
            By.XPATH,
            "//*[contains(text(), 'Remote guide error') or "
            "contains(text(), 'not allowed according to server allowlist')]",
        )
        guide_frame = title.find_element(By.XPATH, "ancestor::*[@data-testid='frame']")
        guide_frame.screenshot(str(OUT / "browser-guide.png"))

        # Run the first step as an analyst does: the parameter block, then the closure, by their play icons.
        def run_block(block_id):  # the block's play icon (scrolled into view: frames above push it down)
            icon = driver.find_element(By.CSS_SELECTOR, f"#{block_id} i")
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", icon)
            wait.until(ec.element_to_be_clickable(icon)).click()

        run_block("kg-param-tool")
        wait.until(
            lambda d: any(
                '"tool": "share_location_via_email"' in e.text
                for e in d.find_elements(By.CSS_SELECTOR, "[data-testid=frame]")
            )
        )
        run_block("kg-step-closure")
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "svg g.node")) == len(expected))
        time.sleep(2)  # let the force layout settle for the screenshot

        nodes = {}
        for node in driver.find_elements(By.CSS_SELECTOR, "svg g.node"):
            caption = "".join(t.text for t in node.find_elements(By.CSS_SELECTOR, "text.caption"))
            fill = node.find_element(By.CSS_SELECTOR, "circle.b-outline").get_attribute("fill")
            nodes[caption] = fill.upper()
        for name, labels in expected.items():  # captions are the tool names (long ones cut with …)
            caption = next((c for c in nodes if name.startswith(c.rstrip("…"))), None)
            assert caption is not None, f"no node captioned {name!r} in {sorted(nodes)}"
            kind = "node.Core" if "Core" in labels else "node.Regular"
            assert nodes[caption] == rules[kind]["color"].upper(), (name, nodes[caption])
        assert rules["node.Core"]["color"] != rules["node.Regular"]["color"]

        rels = {}
        for rel in driver.find_elements(By.CSS_SELECTOR, "svg g.relationship"):
            fill = rel.find_element(By.CSS_SELECTOR, "path.b-outline").get_attribute("fill").upper()
            rels.setdefault(fill, set()).add(rel.text.rstrip("…"))
        for fill, captions in rels.items():  # each edge coloured by its type, captioned by (a prefix of) it
            kinds = [
                sel
                for sel, props in rules.items()
                if sel.startswith("relationship.") and props.get("color", "").upper() == fill
            ]
            assert len(kinds) == 1, (fill, captions)
            assert all(kinds[0].removeprefix("relationship.").startswith(c) for c in captions), (kinds, captions)
        direct = rules["relationship.TOOL_DIRECTLY_DEPENDS_ON"]
        indirect = rules["relationship.TOOL_INDIRECTLY_DEPENDS_ON"]
        assert direct["color"] != indirect["color"] and direct["shaft-width"] != indirect["shaft-width"]
        assert {direct["color"].upper(), indirect["color"].upper()} <= set(rels)

        graph_frame = driver.find_element(By.CSS_SELECTOR, "svg g.node").find_element(
            By.XPATH, "ancestor::*[@data-testid='frame']"
        )
        graph_frame.screenshot(str(OUT / "browser-graph.png"))
    finally:
        driver.quit()
    assert (OUT / "browser-guide.png").stat().st_size > 10_000


def test_browser_guide_command_prints_urls_and_foreign_setup():
    env = {"KG_TOOLS_API_PORT": "18123", "KG_TOOLS_API_HOST": "0.0.0.0"}
    out = CliRunner().invoke(cli, ["browser-guide", "--json"], env=env)
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["guide_url"] == "http://127.0.0.1:18123/browser-guide/kg-tools.html"
    assert data["style_url"] == "http://127.0.0.1:18123/browser-guide/kg-tools.grass"
    assert data["post_connect_cmd"] == f"style {data['style_url']}; play {data['guide_url']}"
    text = CliRunner().invoke(cli, ["browser-guide"], env=env).output
    assert ":play http://localhost:18123/browser-guide/kg-tools.html" in text
    assert "NEO4J_browser_post__connect__cmd='style http://localhost:18123/browser-guide/kg-tools.grass;" in text
