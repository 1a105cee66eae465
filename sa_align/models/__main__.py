"""`python -m sa_align.models [folder]`: regenerate the shipped JSON Schemas (default `units/schema`)."""

import sys

from sa_align.models.schemas import write_schemas

write_schemas(sys.argv[1] if len(sys.argv) > 1 else "units/schema")
