"""Who may see what: callers' roles, disclosure policies, treaties and hush, enforced on
every request and response in one place (``release``). See docs/policy.md.

Submodules are imported by name: the models import ``markers``, which must not pull in the
registry."""
