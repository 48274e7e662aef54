"""Validates payloads against JSON Schemas with Python's jsonschema (draft 2020-12, formats asserted).

Reads NDJSON on stdin: first {"schemas": {id: schema}}, then one {"id": id, "payload": payload} per line.
Writes one line per payload: {"valid": bool, "paths": [[step, ...], ...]}, where each path is the place an
error points at (the missing or unexpected key itself for required and additionalProperties), including
the errors inside anyOf/oneOf branches.
"""
import datetime
import json
import sys

from jsonschema import Draft202012Validator, FormatChecker

checker = FormatChecker()
if "date-time" not in checker.checkers:
    # jsonschema checks date-time only with the optional rfc3339-validator package. The exported schemas'
    # patterns check the shape; the format states the calendar (no 2023-02-29), which is checked here.
    @checker.checks("date-time", raises=ValueError)
    def _date_time(instance):
        if isinstance(instance, str):
            datetime.date.fromisoformat(instance[:10])
        return True


def paths(error, out):
    base = list(error.absolute_path)
    if error.validator == "required" and isinstance(error.instance, dict):
        out.extend(base + [key] for key in error.validator_value if key not in error.instance)
    elif error.validator == "additionalProperties" and isinstance(error.instance, dict):
        known = error.schema.get("properties", {})
        out.extend(base + [key] for key in error.instance if key not in known)
    else:
        out.append(base)
    for sub in error.context or []:
        paths(sub, out)


validators = {}
for line in sys.stdin.buffer:
    message = json.loads(line)
    if "schemas" in message:
        for endpoint, schema in message["schemas"].items():
            Draft202012Validator.check_schema(schema)
            validators[endpoint] = Draft202012Validator(schema, format_checker=checker)
        continue
    found = []
    for error in validators[message["id"]].iter_errors(message["payload"]):
        paths(error, found)
    sys.stdout.write(json.dumps({"valid": not found, "paths": found}) + "\n")
