"""The values every layer shares; no project imports.

findings.py (Finding, Subject, Status, Severity: msgspec Structs, cheap by the thousand), rule.py (the ``@rule``
decorator, the outcomes a rule returns and the kinds of ``needs``), policy.py (the Policy container rules read,
each file loaded when first asked for), values.py (reading a raw value, the one integer test and loaded-mapping
accessor, showing a value), models.py (the pydantic bases every file and policy model is declared on: strict,
``defer_build``, a ValidationError as located problems), report_model.py (the JSON report as pydantic models;
schemas/report.schema.json is generated from it), gate.py (the --fail-on values, defined once, and what a
combined gate trips on), week0.py (the Week-0 prediction as a value), fixes.py (a fix as data), spellings.py
(the boolean words, did-you-mean), option_values.py (option values that name nothing: a usage problem),
placeholders.py (the ``<FILL: ...>`` mark of a draft), fingerprint.py (a finding's identity across runs),
json_text.py (json.dumps's exact text, fast), rule_pages.py (where a rule's page is), version.py; the machine's
side of writing: writing.py (every byte to a descriptor), scratch.py (our temporary files), spool.py (a cohort's
encoded findings on disk), libc.py (a Linux libc function through ctypes).
"""
