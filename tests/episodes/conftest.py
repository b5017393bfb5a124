"""The stores every episodes test runs on: the same fixtures as the operations' tests."""

from tests.ops.conftest import is_postgres, module_target, new_target, target

__all__ = ["is_postgres", "module_target", "new_target", "target"]
