"""The rules that set or veto a label: their codes and docs (`registry`), and what selection and
status do to a unit's verdicts and result (`policy`)."""
