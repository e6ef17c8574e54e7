"""Validates a CycloneDX 1.5 JSON document against the schema beside this file.

Usage: python3 validate.py BOM.json — prints nothing and exits 0 when it is valid; prints
each error (with where it is) and exits 1 when not. Works with jsonschema before and after
4.18 (the `referencing` package).
"""
import json
import os
import sys

import jsonschema

here = os.path.dirname(os.path.abspath(__file__))
schemas = {}
for name in ["bom-1.5.schema.json", "spdx.schema.json", "jsf-0.82.schema.json"]:
    with open(os.path.join(here, name), encoding="utf-8") as f:
        schema = json.load(f)
    schemas[schema["$id"]] = schema
root = schemas["http://cyclonedx.org/schema/bom-1.5.schema.json"]
with open(sys.argv[1], encoding="utf-8") as f:
    document = json.load(f)

try:
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT7

    registry = Registry().with_resources(
        [(uri, Resource.from_contents(s, default_specification=DRAFT7)) for uri, s in schemas.items()])
    validator = jsonschema.Draft7Validator(root, registry=registry)
except ImportError:
    resolver = jsonschema.RefResolver.from_schema(root, store=schemas)
    validator = jsonschema.Draft7Validator(root, resolver=resolver)

errors = sorted(validator.iter_errors(document), key=lambda e: list(e.path))
for error in errors:
    print("/".join(str(p) for p in error.path) + ": " + error.message)
sys.exit(1 if errors else 0)
