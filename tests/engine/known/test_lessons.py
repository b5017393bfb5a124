"""Lessons written blind (from each pattern's examples, before its phrases were read) name
their pattern by their words; lessons about other mistakes name none of their area's
patterns; every pattern has lessons. One lesson file per area of the catalogue."""

from __future__ import annotations

from types import ModuleType

import pytest

from xdb.engine.known import CATALOGUE, catalogue, named_in
from xdb.engine.known.lessons import code1 as lessons_code1
from xdb.engine.known.lessons import code2 as lessons_code2
from xdb.engine.known.lessons import infra as lessons_infra
from xdb.engine.known.lessons import shell_commands as lessons_shell
from xdb.engine.known.lessons import wave5_c1, wave5_c2, wave5_i1, wave5_s1, wave5_s2

# Each area's lessons, and the catalogue's modules it covers.
AREAS: dict[str, tuple[ModuleType, tuple[str, ...]]] = {
    "shell": (lessons_shell, ("shell_vcs_files", "shell_vcs_files_fs", "shell_vcs_files_sys",
                              "shell_vcs_files_pkg", "shell_ops", "shell_ops_k8s",
                              "shell_ops_tf", "shell_ops_cloud", "shell_ops_gcp_azure",
                              "shell_ops_data", "shell_more", "shell_sys_admin",
                              "shell_vcs_build", "shell_services_data",
                              "shell_services_cloud")),
    "code1": (lessons_code1, ("code_python", "code_python_idioms", "py_security",
                              "py_frameworks", "code_sql", "code_sql_schema", "code_web",
                              "code_web_js", "code_web_node", "code_go_rust", "code_go_rust_rs",
                              "code_more", "code_more_langs")),
    "code2": (lessons_code2, ("code_jvm_dotnet", "code_jvm_dotnet_sec_kotlin",
                              "code_jvm_dotnet_cs", "code_jvm_dotnet_cs_sec",
                              "code_jvm_dotnet_spring", "code_other", "code_other_php",
                              "code_other_native", "code_more_jvm")),
    "infra": (lessons_infra, ("config_infra", "config_infra_compose", "config_infra_k8s",
                              "config_infra_cloud", "config_infra_ci", "config_more",
                              "config_services", "config_env_deps")),
    # Wave 5: one lesson per pattern, by other writers, grouped otherwise.
    "wave5_s1": (wave5_s1, ("shell_vcs_files", "shell_vcs_files_fs", "shell_vcs_files_sys",
                            "shell_vcs_files_pkg", "shell_vcs_build", "shell_sys_admin",
                            "shell_more")),
    "wave5_s2": (wave5_s2, ("shell_ops", "shell_ops_k8s", "shell_ops_tf", "shell_ops_cloud",
                            "shell_ops_gcp_azure", "shell_ops_data", "shell_services_data",
                            "shell_services_cloud")),
    "wave5_c1": (wave5_c1, ("code_python", "code_python_idioms", "py_security",
                            "py_frameworks", "code_sql", "code_sql_schema", "code_web",
                            "code_web_js", "code_web_node")),
    "wave5_c2": (wave5_c2, ("code_go_rust", "code_go_rust_rs", "code_more", "code_more_langs",
                            "code_jvm_dotnet", "code_jvm_dotnet_sec_kotlin",
                            "code_jvm_dotnet_cs", "code_jvm_dotnet_cs_sec",
                            "code_jvm_dotnet_spring", "code_other", "code_other_php",
                            "code_other_native", "code_more_jvm")),
    "wave5_i1": (wave5_i1, ("config_infra", "config_infra_compose", "config_infra_k8s",
                            "config_infra_cloud", "config_infra_ci", "config_env_deps",
                            "config_more", "config_services")),
}  # fmt: skip


def _area(modules: tuple[str, ...]) -> frozenset[str]:
    return frozenset(
        p.name
        for m in catalogue._MODULES
        if m.__name__.rsplit(".", 1)[1] in modules
        for p in m.PATTERNS
    )


CASES = [(area, lesson) for area, (module, _) in AREAS.items() for lesson in module.LESSONS]


@pytest.mark.parametrize(
    ("area", "lesson"), CASES, ids=[f"{a}:{x[0] or x[1][:30]}" for a, x in CASES]
)
def test_a_lesson_names_its_pattern_and_no_other_of_its_area(
    area: str, lesson: tuple[str, str, str]
) -> None:
    name, question, answer = lesson
    named = named_in(question + "\n" + answer)
    if name:
        assert name in CATALOGUE and name in _area(AREAS[area][1]), name
        assert name in named, (name, sorted(named))
    else:
        assert not named & _area(AREAS[area][1]), sorted(named)


@pytest.mark.parametrize("area", AREAS)
def test_every_pattern_has_a_lesson(area: str) -> None:
    module, prefixes = AREAS[area]
    taught = {name for name, _, _ in module.LESSONS}
    assert taught >= _area(prefixes), sorted(_area(prefixes) - taught)


def test_every_module_is_in_an_area() -> None:
    covered = frozenset().union(*(_area(prefixes) for _, prefixes in AREAS.values()))
    assert covered == frozenset(CATALOGUE)
