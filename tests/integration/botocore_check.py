"""botocore_check.py - a request body smfw sent, checked against botocore's model of the
operation (tests/data/awsmodels): botocore's own validator (members, types, required) plus
what it leaves to the service (string lengths and patterns, enums, list and map sizes).
Imported by the test scripts that record what smfw sent (json_record_proxy.py).

    from botocore_check import load_model, check_body
    model = load_model(path_to_service_2_json, "sagemaker")
    check_body(model, "ListAIBenchmarkJobs", body)   # raises on a body AWS would refuse
"""
import json
import re
import unicodedata

from botocore.model import ServiceModel
from botocore.validate import validate_parameters

# SageMaker's CustomerMetadataProperties and tag patterns use \p{...}, which Python's re lacks.
_UNICODE_CLASS = ("([\\p{L}\\p{Z}\\p{N}_.:\\/=+\\-@]*)${1,128}",
                  "([\\p{L}\\p{Z}\\p{N}_.:\\/=+\\-@]*)${1,256}",
                  "([\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*)")


def load_model(path, service_name):
    with open(path) as f:
        return ServiceModel(json.load(f), service_name)


def pattern_ok(pattern, s):
    if pattern in _UNICODE_CLASS:  # [\p{L}\p{Z}\p{N}_.:/=+\-@]*
        return all(unicodedata.category(c)[0] in "LZN" or c in "_.:/=+-@" for c in s)
    assert "\\p{" not in pattern, pattern
    return re.fullmatch(pattern, s) is not None


def check_shape(shape, v, where):
    """What botocore's validator leaves to the service: max, patterns, enums."""
    t = shape.type_name
    if t == "structure":
        for k, x in v.items():
            check_shape(shape.members[k], x, f"{where}.{k}")
    elif t == "list":
        assert len(v) <= shape.metadata.get("max", 1 << 30), (where, len(v))
        for i, x in enumerate(v):
            check_shape(shape.member, x, f"{where}[{i}]")
    elif t == "map":
        assert shape.metadata.get("min", 0) <= len(v) <= shape.metadata.get("max", 1 << 30), (where, len(v))
        for k, x in v.items():
            check_shape(shape.key, k, f"{where} key {k}")
            check_shape(shape.value, x, f"{where}[{k}]")
    elif t == "string":
        m = shape.metadata
        assert m.get("min", 0) <= len(v) <= m.get("max", 1 << 30), (where, len(v), v)
        if "pattern" in m:
            assert pattern_ok(m["pattern"], v), (where, m["pattern"], v)
        if shape.enum:
            assert v in shape.enum, (where, v)
    elif t == "integer" or t == "long":
        m = shape.metadata
        assert m.get("min", -(1 << 63)) <= v <= m.get("max", 1 << 63), (where, v)


def check_body(model, op, body):
    shape = model.operation_model(op).input_shape
    validate_parameters(body, shape)  # raises ParamValidationError
    check_shape(shape, body, op)
