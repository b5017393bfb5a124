"""The explorer's tests run on the leak hunter's world: visible and hidden concepts, a
treaty partner, episodes, exemplars, datasets and compacted records."""

from tests.ops.conftest import module_target, target
from tests.policy.test_leak_hunter import world

__all__ = ["module_target", "target", "world"]
