"""Fixtures shared by the trainer tests."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch


@pytest.fixture(autouse=True)
def _no_flush_to_zero_leaks():
    """A trainer run in-process turns on flush-to-zero for speed (``--flush-denormals``);
    the next test must not inherit it (hypothesis refuses to draw floats under it)."""
    yield
    torch.set_flush_denormal(False)


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory) -> Path:
    """A 2-layer Llama with the project tokenizer, saved like any local checkpoint."""
    from transformers import LlamaForCausalLM

    from policy_opt.models import default_config, default_tokenizer

    torch.manual_seed(0)
    path = tmp_path_factory.mktemp("tiny")
    cfg = default_config(hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                         intermediate_size=64)
    LlamaForCausalLM(cfg).save_pretrained(path)
    default_tokenizer().save_pretrained(path)
    return path


# The slow integration tests (multi-process, subprocess training runs, distributed, sandboxed
# datasets, long generators): `python -m pytest` (the README's command) leaves them out, so
# a developer gets an answer in minutes; `.ci/run` runs them after it (`-m slow`). Chosen by
# measured duration (`--durations`, which CI prints); a whole file where most of it is slow.
SLOW_FILES = {
    "test_distributed.py", "test_gpu.py", "test_train_step_benchmark.py", "test_lora.py",
    "test_name_clash.py", "test_learning_benchmark.py", "test_tool_env_learning.py",
    "test_compare.py", "test_run_lifecycle.py", "test_tasks_docs.py", "test_code_datasets.py",
    "test_run_moments.py", "test_checkpoint_healing.py",
}
SLOW_TESTS = {
    "test_adapters_trainers.py::test_verl_managers_score_gsm8k_rows_with_answer_in_extra_info",
    "test_code_attacks.py::test_catastrophic_regex",
    "test_code_attacks.py::test_each_assert_has_its_own_time_and_cpu_budget",
    "test_code_attacks.py::test_fork_bomb",
    "test_code_attacks.py::test_hostile_files_cannot_break_cleanup_or_reach_the_next_candidate",
    "test_code_attacks.py::test_infinite_loop_c_level",
    "test_code_attacks.py::test_infinite_loop_python",
    "test_code_attacks.py::test_patched_builtins_and_harness",
    "test_code_attacks.py::test_remove_tree_survives_what_a_candidate_can_build",
    "test_code_attacks.py::test_the_pid_counter_carries_nothing_to_the_next_candidate",
    "test_code_attacks.py::test_the_universal_hack_is_a_working_attack",
    "test_code_attacks.py::test_universal_hack_passes_no_mbpp_or_humaneval_row",
    "test_code_sandbox.py::test_the_isolation_test_passes_when_the_project_runs_from_a_venv",
    "test_device_discipline.py::test_the_optimiser_reads_the_device_per_optimiser_step_not_per_micro_batch",
    "test_device_discipline.py::test_train_step_and_evaluation_run_on_a_second_device",
    "test_env_probe.py::test_cli_exit_status_and_json",
    "test_envs_processes.py::test_a_task_registered_in_an_importable_module_works_under_spawn_and_forkserver",
    "test_envs_processes.py::test_make_vec_async_under_spawn_rebuilds_the_task_in_the_child",
    "test_evaluate.py::test_a_checkpoint_is_evaluated_with_its_runs_settings_unless_told_otherwise",
    "test_evaluate.py::test_evaluating_a_run_repeats_the_trainers_final_evaluation",
    "test_gsm8k.py::test_whole_dataset_scores_itself_and_nothing_else",
    "test_math_comparator_properties.py::test_a_joined_list_pays_for_a_solution_set_with_the_same_members_only",
    "test_math_comparator_properties.py::test_a_set_equals_any_permutation_of_itself",
    "test_math_comparator_properties.py::test_permuted_tuples_are_equal_only_elementwise",
    "test_math_suite.py::test_no_false_positive_on_any_trap",
    "test_probe.py::test_a_broken_reward_is_reported_per_probe_and_never_stops_the_run",
    "test_probe.py::test_a_reward_that_always_hangs_costs_one_deadline_per_probe",
    "test_probe.py::test_the_doc_family_is_a_dozen_lines_and_its_cli_line_prints_what_it_says",
    "test_quiet_start.py::test_a_run_prints_no_weight_bars_and_no_cache_deprecation",
    "test_readme.py::test_verifier_command_lines_run_and_accept",
    "test_reward_time.py::test_fixed_megabyte_shapes_are_fast",
    "test_reward_time.py::test_math_costly_small_answers_are_fast",
    "test_rubric.py::test_timeout_kills_c_level_work_and_is_reported",
    "test_run_folder.py::test_a_second_run_in_the_same_out_is_refused_until_overwrite",
    "test_tasks.py::test_generated_references_all_score_one_over_10000_rows",
    "test_tasks_data.py::test_gsm8k_every_reference_scores_one_train_and_test",
    "test_tool_env.py::test_the_python_tool_runs_in_the_sandbox_not_in_this_process",
    "test_train.py::test_a_run_writes_metrics_plot_and_checkpoint",
    "test_train.py::test_flush_denormals_reaches_the_worker_threads_started_after_it",
    "test_train.py::test_greedy_rollouts_train_nothing_and_say_so",
    "test_train.py::test_help_lists_flags",
    "test_train.py::test_resume_below_the_checkpoint_step_keeps_the_checkpoint",
    "test_train.py::test_resume_continues_the_minutes_budget",
    "test_train.py::test_resume_drops_a_torn_metrics_line",
    "test_train.py::test_resume_from_a_damaged_checkpoint_is_a_clear_error",
    "test_train.py::test_resume_notes_other_changed_settings_and_accepts_another_spelling_of_the_model",
    "test_train.py::test_resume_refuses_a_checkpoint_of_another_env_algo_or_model",
    "test_train.py::test_resume_repeats_the_uninterrupted_run_exactly",
    "test_train.py::test_resume_with_only_out_and_max_steps_continues_the_same_run",
    "test_train.py::test_the_trainer_applies_the_schedule_and_the_minutes_budget",
    "test_vllm_server.py::test_trainer_with_vllm_server_syncs_at_start_and_after_each_step",
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        path, _, name = item.nodeid.partition("::")
        file = path.rsplit("/", 1)[-1]
        if file in SLOW_FILES or f"{file}::{name.split('[')[0]}" in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)
