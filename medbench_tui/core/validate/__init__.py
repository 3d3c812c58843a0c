"""Validation of case files: every problem, where it is, and what to change.

Findings are :class:`Diagnostic` objects with stable codes. Errors block
``status: final``; warnings do not; an info explains how something allowed will be read.
Nothing here raises on any input: a file that cannot even be read is a diagnostic too.

Codes (severity):
  file.unreadable, file.encoding, file.outside_bank (error)
  yaml.empty, yaml.syntax, yaml.duplicate_key, yaml.not_mapping, yaml.complex_key,
  yaml.recursive_alias, yaml.merge, yaml.tag, yaml.too_deep, yaml.alias_expansion (error);
  yaml.comment_in_block (warning)
  schema.missing, schema.unknown_key, schema.type, schema.enum, schema.pattern,
  schema.too_short, schema.too_long, schema.value (error)
  icd10.* (from ``icd10.check_case_code``: errors, and warnings such as icd10.unspecific);
  icd10.unavailable (error: the WHO table could not be loaded)
  case.id_mismatch, case.final_with_errors (error); case.final_reviewers,
  case.no_required_item, case.num_steps_missing, case.num_steps_over_max (warning)
  ref.unknown_answer, ref.unknown_item, ref.duplicate_id, ref.unknown_parent,
  ref.self_parent (error); ref.unanswered_question, ref.duplicate_item (warning)
  attachment.missing_file, attachment.outside_bank, attachment.no_content,
  attachment.after_turn_missing (error); attachment.after_turn_unused (warning)
  attachment.placeholder_image (error)
  value.not_positive, value.negative, value.empty (error)
  item.unknown_timing, item.unknown_route, item.unknown_target (error: ``within``, ``route``
  and ``target`` must be words the vocabulary knows); alias.too_broad, alias.bare_team, alias.critical_bare,
  alias.shared (warning)
  condition.split_name, condition.harmful_item, item.harmful_alternative (error);
  condition.misspelt_item, icd10.primary_as_differential (warning); condition.phrase_entry (info)
  check.unknown_item, check.unknown_condition, check.unknown_reference, check.duplicate_id,
  check.default_with_facts (error: the case's own checks)
  setting.missing, setting.hospital_test (warning)
  leak.diagnosis, leak.attachment_title, record.contradiction (warning)
  bank.duplicate_id (error); bank.near_duplicate (warning)
  rubric.no_question, rubric.two_questions, rubric.last_message, rubric.no_grading, rubric.two_gradings,
  criterion.duplicate_id, criterion.no_rule, criterion.unused_rule, criterion.no_phrases,
  criterion.blank_phrase, criterion.no_positive, panel.no_positive (error: rubric cases);
  panel.one_sided, panel.duplicate_action (warning)
  internal.error (error: a bug in medbench, never expected)
"""

from medbench_tui.core.validate.files import (
    iter_reports,
    load_valid_case,
    load_valid_rubric,
    validate_file,
    validate_paths,
)
from medbench_tui.core.validate.one_case import validate_text
from medbench_tui.core.validate.report import CaseReport, format_diagnostic, summary
from medbench_tui.core.validate.schema import SCHEMA_ID, case_json_schema

__all__ = [
    "SCHEMA_ID",
    "CaseReport",
    "case_json_schema",
    "format_diagnostic",
    "iter_reports",
    "load_valid_case",
    "load_valid_rubric",
    "summary",
    "validate_file",
    "validate_paths",
    "validate_text",
]
