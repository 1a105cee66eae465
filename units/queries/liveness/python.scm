; Where a name spelled in Python source is, for sa_align's liveness facts
; (sa_align/judges/evidence/liveness/facts.py; the rules are in units/liveness.yaml).
;
; Capture naming convention (each capture is a byte range of the source):
;   @comment        a comment: a name in it is no use; `name(` in it is a call
;                   someone switched off
;   @docstring      the first string of a module or block: documentation, no use
;   @import         an import statement: it binds names without using them
;   @function       a function definition; @function.name is its name (no use),
;                   @function.body its block (a use inside belongs to the
;                   function; one in the parameters or decorators belongs to
;                   the scope around it, which runs when the definition does)
;   @class          a class definition; @class.name its name (no use)
;
; Every other identifier and every word of another string literal is a use.
; This file lives in a sub-folder so that it is not compiled into the
; indexer's `python-*.scm` query.

(comment) @comment

(module . (expression_statement (string) @docstring))
(block . (expression_statement (string) @docstring))

(import_statement) @import
(import_from_statement) @import
(future_import_statement) @import

(function_definition
  name: (identifier) @function.name
  body: (block) @function.body) @function

(class_definition
  name: (identifier) @class.name) @class
