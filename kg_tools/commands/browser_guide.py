"""`kg-tools browser-guide`: where the Neo4j Browser guide and style are, and how to use them anywhere."""

import click

from kg_tools.commands.context import pass_app
from kg_tools.commands.options import json_flag, print_json


def register(cli):
    @cli.command("browser-guide")
    @json_flag("Print the URLs and settings as JSON.")
    @pass_app
    def browser_guide(app, as_json):
        """The guide and style URLs (served by the REST API) and the commands for a Neo4j we did not configure."""
        from kg_tools import browser
        from kg_tools.neo4j_server import LocalNeo4j

        s = app.settings
        base = browser.api_base_url(s.api_host, s.api_port)
        conf = LocalNeo4j.from_settings(s).conf_dir / "neo4j.conf"
        if as_json:
            print_json(
                {
                    "guide_url": browser.guide_url(base),
                    "style_url": browser.style_url(base),
                    "post_connect_cmd": browser.post_connect_cmd(base),
                    "remote_content_hostname_whitelist": browser.ALLOWED_HOSTS,
                    "neo4j_conf": str(conf),
                }
            )
        else:
            click.echo(browser.instructions(base, conf))
