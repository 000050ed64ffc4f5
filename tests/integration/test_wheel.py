"""The built wheel works outside the checkout (issue 22): it carries every resource it reads (Cypher,
schema, pom, prompts, Browser guide), installs only `kg_tools` at the top, and a fresh virtualenv in a
temporary directory runs `kg-tools --help`, a load and a retrieve against the test Neo4j. It carries no
benchmark harness and no evaluation data (issue 32: benchmarks/ is kg-tools-benchmarks): there `kg-tools eval`
and `kg-tools bench` end with one line saying what to install."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from kg_tools import PROJECT_ROOT

pytestmark = pytest.mark.integration
CATALOG = "wheel-check"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(PROJECT_ROOT), "-w", str(out)],
        check=True,
        timeout=600,
    )
    return next(out.glob("kg_tools-*.whl"))


def test_the_wheel_holds_every_resource_and_no_generic_top_level_name(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert {n.split("/")[0] for n in names} - {"kg_tools"} == {
        wheel.name.split("-")[0] + "-" + wheel.name.split("-")[1] + ".dist-info"
    }
    for directory, pattern in (("cypher", ".cypher"), ("schema", ".cypher")):
        shipped = {Path(n).name for n in names if n.startswith(f"kg_tools/resources/{directory}/")}
        assert shipped == {p.name for p in (PROJECT_ROOT / directory).glob(f"*{pattern}")}
    for needed in (
        "kg_tools/resources/maven/pom.xml",
        "kg_tools/api/app.py",
        "kg_tools/loaders/openapi.py",
        "kg_tools/browser_guide/kg-tools.html",
        "kg_tools/deps/scorer.json",
    ):
        assert needed in names
    harness = [n for n in names if n.startswith(("kg_tools/eval/", "kg_tools/bench/", "benchmarks/")) or "/data/" in n]
    assert harness == []
    assert max(zipfile.ZipFile(wheel).getinfo(n).file_size for n in names) < 1_000_000  # no data file
    assert {Path(n).name for n in names if n.startswith("kg_tools/prompts/")} == {
        p.name for p in (PROJECT_ROOT / "kg_tools" / "prompts").iterdir() if p.is_file()
    }
    # every Python module of the checkout is in the wheel (a package missing from pyproject's list is not)
    sources = {
        f"kg_tools/{top}/{p.relative_to(PROJECT_ROOT / top)}" if top != "kg_tools" else str(p.relative_to(PROJECT_ROOT))
        for top in ("kg_tools", "api", "loaders")
        for p in (PROJECT_ROOT / top).rglob("*.py")
    }
    assert sources - set(names) == set()


def _install(python: Path, wheel: Path, tmp_path: Path) -> None:
    """pip install the wheel, its dependencies pinned to the versions this test run has (a release made
    since scripts/setup is not what this test checks); retried, as a registry hiccup is not a failure of
    the wheel, and pip's own words are shown when it still fails."""
    frozen = subprocess.run(
        [sys.executable, "-m", "pip", "freeze", "--exclude-editable"], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    constraints = tmp_path / "constraints.txt"
    constraints.write_text("\n".join(line for line in frozen if "==" in line and not line.startswith("kg-tools")))
    for _attempt in range(3):
        done = subprocess.run(
            [str(python), "-m", "pip", "install", "-q", "-c", str(constraints), str(wheel)],
            capture_output=True,
            text=True,
            timeout=900,
        )
        if done.returncode == 0:
            return
    pytest.fail(f"pip install of the wheel failed 3 times; last output:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")


def test_a_fresh_venv_outside_the_checkout_loads_and_retrieves(wheel, tmp_path, settings, graph):
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    _install(python, wheel, tmp_path)
    env = {
        "PATH": f"{env_dir / 'bin'}:{os.environ['PATH']}",
        "HOME": str(tmp_path),
        "HF_HUB_OFFLINE": "1",
        "NEO4J_URI": settings.neo4j_uri,
        "NEO4J_USER": settings.neo4j_user,
        "NEO4J_PASSWORD": settings.neo4j_password,
        "KG_TOOLS_MODELS_DIR": str(settings.models_dir),
    }  # the model scripts/setup installed
    kg = str(env_dir / "bin" / "kg-tools")

    def run(*args):
        return subprocess.run([kg, *args], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)

    assert run("--help").returncode == 0
    for args in (["eval", "toollinkos"], ["bench", "--help"]):
        missing = run(*args)
        assert missing.returncode == 2
        assert missing.stderr.splitlines() == [missing.stderr.strip()] and "Traceback" not in missing.stderr
        assert missing.stderr.startswith(f"error: `kg-tools {args[0]}` is the benchmark harness")
        assert "install kg-tools-benchmarks (scripts/test does" in missing.stderr
    where = subprocess.run(
        [str(python), "-c", "import kg_tools; print(kg_tools.__file__)"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert str(env_dir) in where and str(PROJECT_ROOT) not in where
    try:
        loaded = run(
            "load",
            "openai-tools",
            str(PROJECT_ROOT / "tests" / "support" / "fixtures" / "openai_tools.json"),
            "--catalog",
            CATALOG,
        )
        assert loaded.returncode == 0, loaded.stderr
        found = run("retrieve", "what's the weather like in Paris", "--catalog", CATALOG, "--json")
        assert found.returncode == 0, found.stderr
        assert json.loads(found.stdout)["tools"][0]["name"] == "get_weather"
    finally:
        graph.write("MATCH (t:Tool {catalog: $catalog}) DETACH DELETE t", catalog=CATALOG)
