"""``endpoints-checker schema KIND`` prints the schema file as it is; an unknown KIND is exit 2 with a
did-you-mean; hover's field lookup reads the same files."""
from __future__ import annotations

import json
import os

from click.testing import CliRunner

from checker.cli.main import main
from checker.lsp.hover import describe_field, key_at
from checker.lsp.schemas import for_file, kinds

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_schema_prints_each_kind_as_the_file_holds_it():
    for kind in ("point", "system_desc", "result_summary", "system_power", "waivers", "report", "policy/models"):
        assert kind in kinds()
        out = CliRunner().invoke(main, ["schema", kind])
        assert out.exit_code == 0, out.output
        with open(os.path.join(REPO, "schemas", *kind.split("/")) + ".schema.json", encoding="utf-8") as fh:
            assert out.output == fh.read()
        assert isinstance(json.loads(out.output), dict)


def test_an_unknown_kind_is_a_usage_error_with_a_did_you_mean():
    out = CliRunner().invoke(main, ["schema", "pont"])
    assert out.exit_code == 2
    assert "no schema 'pont'" in out.output and "Did you mean: point" in out.output


def test_hover_finds_the_key_and_its_schema_entry():
    text = "concurrency: 8\nruntime_settings:\n  runtime:\n    scheduler_rng_seed: 5\n"
    assert key_at(text, 3, 6) == ("runtime_settings", "runtime", "scheduler_rng_seed")
    assert key_at(text, 0, 14) is None  # on the value, not the key
    md = describe_field(for_file("point.yaml"), ("region",))
    assert "`submitters_choice`" in md and "type: string" in md
    assert key_at('{"division": "RDI"}', 0, 3) == ("division",)
    assert key_at("x: " + "y" * (2 << 20), 0, 0) is None  # over the hover cap: no parse at all
