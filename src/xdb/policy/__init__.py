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
operations module's own. The logic: ``access_rules``, ``authorize``, ``disclosure``,
``load``, ``keys``, ``release``, ``export``, ``audit_calls``; the concept markers the models
carry are the kernel's (``xdb.models.concept_markers``). Their storage is in ``xdb.store``
(``policy_objects``, ``access*``, ``audit*``, ``policy_methods``).

Submodules are imported by name, so that importing one does not pull in the registry."""
