"""`kg-tools serve`: the REST API (FastAPI under uvicorn)."""

import click

from kg_tools.commands.context import pass_app


def register(cli):
    @cli.command("serve")
    @click.option("--host", default=None, help="Bind address [KG_TOOLS_API_HOST, default 127.0.0.1].")
    @click.option("--port", default=None, type=int, help="Port [KG_TOOLS_API_PORT, default 8000].")
    @click.option(
        "--log-level",
        default="warning",
        show_default=True,
        type=click.Choice(["critical", "error", "warning", "info", "debug"]),
    )
    @click.option(
        "--access-log/--no-access-log",
        default=False,
        show_default=True,
        help="Log every request (costs ~0.1 ms per request).",
    )
    @click.option(
        "--workers",
        default=None,
        type=click.IntRange(1, 64),
        help="API processes [KG_TOOLS_API_WORKERS, default 1]; each has its own embedder and driver pool.",
    )
    @pass_app
    def serve(app, host, port, log_level, access_log, workers):
        """Serve the REST API (docs at /docs). Writes need KG_TOOLS_API_KEY when it is set."""
        import os

        import uvicorn

        from kg_tools.api.app import create_app

        s = app.settings
        host = host or s.api_host
        port = port or s.api_port
        # The bind address decides which Host headers are answered (api/security.py); worker processes
        # read the settings from the environment.
        s = s.model_copy(update={"api_host": host, "api_port": port})
        os.environ["KG_TOOLS_API_HOST"], os.environ["KG_TOOLS_API_PORT"] = host, str(port)
        if not s.api_key and host not in ("127.0.0.1", "localhost", "::1"):
            click.echo(
                f"warning: KG_TOOLS_API_KEY is not set: anyone who can reach {host}:{port} can change the catalog",
                err=True,
            )
        click.echo(f"kg-tools API on http://{host}:{port} (docs: http://{host}:{port}/docs)")
        workers = workers or s.api_workers
        # Several workers need an importable factory; each process reads the same settings (env, .env).
        target = "kg_tools.api.app:create_app" if workers > 1 else create_app(s)
        if workers > 1 and not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            # /metrics answers for every worker: they write their counters to one fresh directory.
            import tempfile

            os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="kg-tools-metrics-")
        uvicorn.run(
            target,
            factory=workers > 1,
            host=host,
            port=port,
            log_level=log_level,
            access_log=access_log,
            workers=workers,
            timeout_keep_alive=30,
        )
