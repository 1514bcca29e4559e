"""Drafter declarations and matching against the approved list (R§2.9.4)."""
from checker.engine.catalogue import all_rules
from rules.shared.registry_policy import ApprovedDraftersPolicy
from rules.drafters.declaration import Decl, match
from rules.shared.seed_values import MISSING

all_rules()

LIST = ApprovedDraftersPolicy.model_validate({"drafters": [
    {"benchmark": "kimi-k3", "approved_cohort": "2026-10-C0", "model_id": "m/head", "weight_checksum": "sha256:AB12",
     "algorithm": "EAGLE3"},
    {"benchmark": "kimi-k3", "approved_cohort": "2026-10-C1", "target_checksum": "sha256:ff",
     "configuration": {"exit_layer": 12}},
]}).drafters


def test_weight_checksum_matches_case_insensitively():
    m = match(Decl({"weight_checksum": "sha256:ab12", "algorithm": "eagle3"}), LIST, "kimi-k3")
    assert m.entry is LIST[0] and m.how == "weight checksum"


def test_configuration_identified_needs_both():
    assert match(Decl({"target_checksum": "sha256:ff", "configuration": {"exit_layer": 12}}), LIST, "kimi-k3").entry is LIST[1]
    m = match(Decl({"target_checksum": "sha256:ff", "configuration": {"exit_layer": 13}}), LIST, "kimi-k3")
    assert m.entry is None and "not on kimi-k3's approved list" in m.problem
    m = match(Decl({"target_checksum": "sha256:ff"}), LIST, "kimi-k3")
    assert m.entry is None and "no drafter identity" in m.problem


def test_algorithm_must_match_when_listed():
    m = match(Decl({"weight_checksum": "sha256:ab12", "algorithm": "Medusa"}), LIST, "kimi-k3")
    assert m.entry is None and m.path == ("speculative_decoding", "algorithm")
    m = match(Decl({"weight_checksum": "sha256:ab12"}), LIST, "kimi-k3")
    assert m.entry is None and "declares no algorithm" in m.problem


def test_no_entries_means_not_allowed():
    m = match(Decl({"weight_checksum": "sha256:ab12"}), [], "llama3_1-8b")
    assert m.entry is None and "not allowed for this benchmark" in m.problem


def test_decl_states():
    assert not Decl(MISSING).present and not Decl(None).present
    off = Decl({"point_config": " Disabled "})
    assert off.present and off.disabled and not off.used
    assert Decl({"point_config": {"n": 1}}).used
    assert Decl(["x"]).identity() is None and not Decl(["x"]).is_mapping
    assert Decl({"point_config": "disabled"}).identity() is None
    a = Decl({"algorithm": "EAGLE3", "weight_checksum": "SHA256:AA"}).identity()
    b = Decl({"algorithm": "eagle3 ", "weight_checksum": "sha256:aa", "point_config": {"n": 2}}).identity()
    assert a == b


def test_model_id_must_agree_for_the_same_checksum():
    m = match(Decl({"weight_checksum": "sha256:ab12", "model_id": "other/head", "algorithm": "EAGLE3"}), LIST, "kimi-k3")
    assert m.entry is None and m.path == ("speculative_decoding", "model_id")


def test_entry_schema_needs_an_identity():
    import pytest
    from pydantic import ValidationError

    for bad in [{"benchmark": "kimi-k3", "approved_cohort": "2026-10-C0", "weight_checksum": "sha256:aa"},
                {"benchmark": "kimi-k3", "approved_cohort": "2026-10-C0", "target_checksum": "sha256:aa"},
                {"benchmark": "kimi-k3", "approved_cohort": "2026-10-c0", "model_id": "m", "weight_checksum": "x"}]:
        with pytest.raises(ValidationError):
            ApprovedDraftersPolicy.model_validate({"drafters": [bad]})
