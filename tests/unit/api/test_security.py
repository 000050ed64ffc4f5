"""Cross-site requests and DNS rebinding (issue 23, item 5): a write from another web origin is refused
(403 forbidden_origin), write bodies must be JSON (or YAML for an import; 415 otherwise: text/plain is
what a browser sends cross-origin without a preflight), and only the Host names of the bind address (or
KG_TOOLS_API_ALLOWED_HOSTS) are answered (421). Checked with the TestClient and with real uvicorn."""

from __future__ import annotations

from fastapi.testclient import TestClient

from kg_tools.api.app import create_app
from kg_tools.api.security import default_allowed_hosts, host_allowed, origin_allowed
from kg_tools.settings import Settings


def test_hosts_allowed_by_the_bind_address():
    assert default_allowed_hosts("127.0.0.1") == ["127.0.0.1", "localhost", "[::1]"]
    assert default_allowed_hosts("0.0.0.0") == ["*"]
    assert default_allowed_hosts("10.0.0.5") == ["10.0.0.5", "127.0.0.1", "localhost", "[::1]"]
    loopback = default_allowed_hosts("127.0.0.1")
    assert host_allowed("127.0.0.1:8000", loopback) and host_allowed("LOCALHOST", loopback)
    assert host_allowed("[::1]:8000", loopback)
    assert not host_allowed("evil.example:8000", loopback) and not host_allowed(None, loopback)
    assert not host_allowed("127.0.0.1.evil.example", loopback)
    assert host_allowed("api.example.org:443", ["api.example.org:443"])
    assert not host_allowed("api.example.org:8443", ["api.example.org:443"])


def test_origins_same_origin_or_listed():
    assert origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000", [])
    assert origin_allowed("http://localhost", "localhost:80", [])
    assert not origin_allowed("https://evil.example", "127.0.0.1:8000", [])
    assert not origin_allowed("http://127.0.0.1:9999", "127.0.0.1:8000", [])  # another port: another origin
    assert not origin_allowed("null", "127.0.0.1:8000", [])
    assert origin_allowed("https://app.example.org", "127.0.0.1:8000", ["https://app.example.org"])
    assert origin_allowed("http://localhost:3000", "127.0.0.1:8000", ["http://localhost:*"])
    assert not origin_allowed("https://localhost:3000", "127.0.0.1:8000", ["http://localhost:*"])


def test_settings_read_comma_separated_lists(monkeypatch):
    monkeypatch.setenv("KG_TOOLS_API_ALLOWED_HOSTS", "api.example.org, 127.0.0.1")
    monkeypatch.setenv("KG_TOOLS_API_ALLOWED_ORIGINS", "https://app.example.org")
    s = Settings()
    assert s.api_allowed_hosts == ["api.example.org", "127.0.0.1"]
    assert s.api_allowed_origins == ["https://app.example.org"]


def test_the_schema_documents_the_refusals():
    schema = TestClient(create_app(Settings(api_allowed_hosts=["testserver"]))).get("/openapi.json").json()
    put = schema["paths"]["/v1/tools/{name}"]["put"]["responses"]
    assert {"403", "415", "421"} <= set(put) and "forbidden_origin" in put["403"]["description"]
    assert "421" in schema["paths"]["/v1/tools"]["get"]["responses"]
    body = schema["paths"]["/v1/catalogs/{name}/import"]["post"]["requestBody"]["content"]
    assert set(body) == {"application/json", "application/yaml"}  # no text/plain


# -- against the real graph ------------------------------------------------------------------------
