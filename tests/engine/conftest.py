"""The stores every engine test runs on (the operations' fixtures)."""

from tests.ops.conftest import is_postgres, module_target, new_target, target

__all__ = ["is_postgres", "module_target", "new_target", "target"]
