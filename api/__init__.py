"""kg-tools REST API for agents (FastAPI). `api.app.create_app(settings)` builds the app."""
