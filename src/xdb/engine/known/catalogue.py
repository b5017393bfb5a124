"""The catalogue: every topic module's patterns by name."""

from __future__ import annotations

from xdb.engine.known import (
    code_go_rust,
    code_go_rust_rs,
    code_jvm_dotnet,
    code_jvm_dotnet_cs,
    code_jvm_dotnet_spring,
    code_more,
    code_more_jvm,
    code_other,
    code_other_native,
    code_python,
    code_sql,
    code_web,
    code_web_js,
    code_web_node,
    config_infra,
    config_infra_ci,
    config_infra_cloud,
    config_infra_k8s,
    config_more,
    py_frameworks,
    py_security,
    shell_more,
    shell_ops,
    shell_ops_cloud,
    shell_ops_data,
    shell_ops_k8s,
    shell_ops_tf,
    shell_vcs_files,
    shell_vcs_files_fs,
    shell_vcs_files_pkg,
    shell_vcs_files_sys,
)
from xdb.engine.known.model import Pattern

_MODULES = (shell_vcs_files, shell_ops, code_python, code_sql, code_web, code_go_rust,
            code_jvm_dotnet, code_jvm_dotnet_cs, code_jvm_dotnet_spring, code_other,
            code_other_native, config_infra,
            config_infra_k8s, config_infra_cloud, config_infra_ci, shell_vcs_files_sys,
            py_security,
            shell_ops_k8s, shell_ops_tf, shell_ops_cloud, shell_ops_data,
            shell_vcs_files_fs, shell_vcs_files_pkg,
            code_web_js, code_web_node, code_go_rust_rs,
            py_frameworks, code_more, config_more, shell_more,
            code_more_jvm)  # fmt: skip
CATALOGUE: dict[str, Pattern] = {p.name: p for m in _MODULES for p in m.PATTERNS}
