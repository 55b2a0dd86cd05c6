"""Parses one exposition with the Prometheus project's Python client and prints what it read, as JSON.

Usage: python3 -I parse_exposition.py CLIENT_DIR prometheus|openmetrics FILE

CLIENT_DIR, when not empty, holds the package prometheus_client and comes first on the path, before
any other copy; when empty, the interpreter's own installed package is used.

The text format is read by prometheus_client.parser, OpenMetrics 1.0 by
prometheus_client.openmetrics.parser (the reference parser of the OpenMetrics test suite), each
raising on what it refuses. Printed: {family: {"type", "help", "samples": {series: value}}}, a series
written name{label="value",...} with its labels sorted.
"""
import json
import sys

if sys.argv[1]:
    sys.path.insert(0, sys.argv[1])

from prometheus_client import parser  # noqa: E402
from prometheus_client.openmetrics import parser as openmetrics_parser  # noqa: E402


def series(sample):
    if not sample.labels:
        return sample.name
    labels = ",".join('%s="%s"' % (k, v) for k, v in sorted(sample.labels.items()))
    return "%s{%s}" % (sample.name, labels)


def main():
    form, path = sys.argv[2], sys.argv[3]
    with open(path, encoding="utf-8") as f:
        text = f.read()
    read = {"prometheus": parser, "openmetrics": openmetrics_parser}[form].text_string_to_metric_families
    families = {}
    for family in read(text):
        if family.name in families:
            raise ValueError("family given twice: " + family.name)
        samples = {}
        for sample in family.samples:
            key = series(sample)
            if key in samples:
                raise ValueError("duplicate series: " + key)
            samples[key] = sample.value
        families[family.name] = {"type": family.type, "help": family.documentation, "samples": samples}
    json.dump(families, sys.stdout, sort_keys=True)


if __name__ == "__main__":
    main()
