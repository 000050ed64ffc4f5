"""The lab beside the product: dev corpora, offline measurements and training of kg-tools' learned parts.
Not part of the runtime wheel."""
