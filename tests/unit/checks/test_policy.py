from __future__ import annotations

from pagereader.checks import Possible, choose_action
from pagereader.config.options import VerifyOptions, VerifyRemedy
from pagereader.types import Finding

REMEDIES = VerifyOptions().remedies
LOOP = Finding(check="repetition", message="loop", severity="error")
MODAL = Finding(check="critical", message="得->應", severity="error")
INFO = Finding(check="fallback", message="answered after grid failed", severity="info")


def test_no_faults_accept() -> None:
    assert choose_action([], Possible(can_retry=True), REMEDIES) == ("accept", None)
    assert choose_action([INFO], Possible(can_retry=True), REMEDIES) == ("accept", None)


def test_the_most_serious_fault_decides() -> None:
    action, lead = choose_action(
        [MODAL, LOOP], Possible(can_retry=True, can_fallback=True), REMEDIES
    )
    assert (action, lead) == ("retry", LOOP)


def test_ladder_walks_down_to_review() -> None:
    assert (
        choose_action([MODAL], Possible(can_retry=True, can_fallback=True), REMEDIES)[0]
        == "fallback"
    )
    assert (
        choose_action([MODAL], Possible(can_retry=True, can_escalate=True), REMEDIES)[0] == "retry"
    )
    assert choose_action([MODAL], Possible(can_escalate=True), REMEDIES)[0] == "escalate"
    assert choose_action([MODAL], Possible(), REMEDIES)[0] == "review"


def test_remedies_are_configurable() -> None:
    review: list[VerifyRemedy] = ["review"]
    only_review = {**REMEDIES, "critical": review}
    everything = Possible(can_retry=True, can_escalate=True, can_fallback=True)
    assert choose_action([MODAL], everything, only_review)[0] == "review"
