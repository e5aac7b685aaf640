"""Reads Prometheus text exposition format on stdin and prints it as JSON, parsed by
prometheus_client's own parser (an implementation that is not Reelwork's):

    {"families": [{"name", "type", "samples": [{"name", "labels": {...}, "value"}]}]}

A text the parser refuses exits 1 with its error on stderr. Used by the metrics integration
test (Tests/IntegrationTests/MetricsEndpointTests.swift).
"""
import json
import math
import sys

from prometheus_client.parser import text_string_to_metric_families


def main() -> int:
    text = sys.stdin.read()
    try:
        families = [
            {
                "name": family.name,
                "type": family.type,
                "samples": [
                    {"name": s.name, "labels": dict(s.labels), "value": s.value}
                    for s in family.samples
                ],
            }
            for family in text_string_to_metric_families(text)
        ]
    except Exception as error:  # the parser's own error, whatever its type
        print(f"prometheus_client could not parse the text: {error!r}", file=sys.stderr)
        return 1
    for family in families:
        for sample in family["samples"]:
            if not math.isfinite(sample["value"]):
                sample["value"] = str(sample["value"])
    json.dump({"families": families}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
