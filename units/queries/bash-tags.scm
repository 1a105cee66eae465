; Shell facts for sa_align's indexer.
; Capture naming convention:
;   @definition.function / @name.definition.function   a shell function
;   @command        a simple command (scanned for `python x.py` / `python -m pkg.mod`)
;   @text.comment   a comment
;   @value.shell    a variable assignment (`SEEDS=3`, `export LR="0.1"`, `local K=9`, `FOO=1 cmd`);
;                   @name is the variable, @literal its value (the indexer keeps literal values only)
(function_definition name: (word) @name.definition.function) @definition.function
(command) @command
(comment) @text.comment
(variable_assignment name: (variable_name) @name value: (_) @literal) @value.shell
