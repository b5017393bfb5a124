"""Who may see what: callers' roles, disclosure policies, treaties and hush, access
policies, keys and the audit log, enforced on every request and response in one place
(``release``). See docs/policy.md.

Operations (each module's ``OPERATIONS``, listed in ``ops/catalog.py``):

- ``policy_operations``: disclosure policies, treaties, hush constraints and named callers
  set, listed and removed; API keys made, listed and revoked;
- ``access_operations``: access policies defined, the database's default chosen, objects
  put under one;
- ``audit_operations``: the audit log listed, shown, verified and pruned.

Their requests and answers: ``policy_models`` (the policy objects themselves) and each
operations module's own. The logic: ``access``, ``authorize``, ``disclosure``, ``load``,
``keys``, ``markers``, ``release``, ``export``, ``audit_calls``. Their storage is in
``xdb.store`` (``policy_objects``, ``access*``, ``audit*``).

Submodules are imported by name: the models import ``markers``, which must not pull in the
registry."""
