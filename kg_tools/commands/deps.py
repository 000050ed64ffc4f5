"""`kg-tools deps infer|list|undo`: dependency inference for catalogs without edges (kg_tools/deps/)."""


def register(cli):
    pass
