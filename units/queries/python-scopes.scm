; Name bindings of Python, for sa_align's unbound-name and unused-import facts.
;
; Capture naming convention:
;   @bind.<form>   a node whose identifiers the form binds in the enclosing scope;
;                  form is for | as | walrus | lambda | global | nonlocal |
;                  augmented | assign | case | type. `name = ...` statements
;                  are read by the pre-filter's scan; definitions, parameters
;                  and imports come from python-tags.scm (@definition.*,
;                  @params, @import.*).
;   @scope.fstring an expression inside an f-string, whose names are read (the
;                  pre-filter's word scan skips strings).
;   @scope.future  a `from __future__ import ...` statement (it binds no name code reads).
;   @scope.py2     a Python 2 construct that tree-sitter accepts (print and exec
;                  statements, `except E, e`): such a file is not checked for
;                  unbound names.
; These matches only pre-filter: sa_align/index/scopes.py confirms every name
; it reports on the syntax tree itself.

(for_statement left: (_) @bind.for)
(for_in_clause left: (_) @bind.for)
(as_pattern alias: (_) @bind.as)
(named_expression name: (identifier) @bind.walrus)
(lambda parameters: (lambda_parameters) @bind.lambda)
(global_statement) @bind.global
(nonlocal_statement) @bind.nonlocal
(augmented_assignment left: (identifier) @bind.augmented)
(assignment left: [(pattern_list) (tuple_pattern) (list_pattern)] @bind.assign)
(assignment left: (identifier) @bind.assign !right)
(case_clause (case_pattern) @bind.case)
(type_parameter) @bind.type
(type_alias_statement left: (type) @bind.type)

(interpolation expression: (_) @scope.fstring)
(format_expression expression: (_) @scope.fstring)

(future_import_statement) @scope.future

(print_statement) @scope.py2
(exec_statement) @scope.py2
(except_clause value: (_) . "," . value: (_)) @scope.py2
