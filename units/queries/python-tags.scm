; Python facts for sa_align's indexer.
;
; Capture naming convention (the indexer branches only on these names):
;   @definition.<kind>        a definition node; kind is class | function
;   @name.definition.<kind>   its name
;   @params                   parameter list of a function
;   @bases                    base-class list of a class
;   @doc                      docstring of the definition in the same match
;   @doc.module               module docstring
;   @decorated / @decorated.target   a decorated definition and the definition inside it
;   @reference.call           a call; @name.reference.call is its callee expression
;   @import.module / @import.from / @import.name / @import.alias / @import.wildcard
;   @value.<source>           a literal bound to a name; source is a ValueFact source
;                             (assign | default | dict | unpack); @name is the bound name,
;                             @literal the value, @key the dict key. Keyword, positional and
;                             CLI-default arguments (kwarg | positional | cli) come from the
;                             argument lists of the @reference.call matches, walked in Python
;                             once per call (units/calls.yaml): three call patterns here would
;                             cost more query time than the whole walk.
;   @text.comment / @text.string   comments and string literals
;   @entry.main               an `if __name__ == "__main__":` block
; Syntax errors are counted with errors.scm, only in trees that have any.
; Captures starting with `_` only serve predicates.

(module . (comment)* . (expression_statement (string) @doc.module))

(class_definition
  name: (identifier) @name.definition.class
  superclasses: (argument_list)? @bases
  body: (block . (comment)* . (expression_statement (string) @doc)?)) @definition.class

(function_definition
  name: (identifier) @name.definition.function
  parameters: (parameters) @params
  body: (block . (comment)* . (expression_statement (string) @doc)?)) @definition.function

(decorated_definition definition: (_) @decorated.target) @decorated

(call function: [(identifier) (attribute)] @name.reference.call) @reference.call

(import_statement name: (dotted_name) @import.module)
(import_statement name: (aliased_import name: (dotted_name) @import.module alias: (identifier) @import.alias))
(import_from_statement module_name: (_) @import.from name: (dotted_name) @import.name)
(import_from_statement module_name: (_) @import.from name: (aliased_import name: (dotted_name) @import.name alias: (identifier) @import.alias))
(import_from_statement module_name: (_) @import.from (wildcard_import) @import.wildcard)

; Any right-hand side: the indexer keeps literal node types only. Listing them here
; as an alternation makes this one pattern cost a third of the whole query's time.
; A subscript target counts only with a string key (`cfg["lr"] = 0.01`); the indexer checks the key.
(assignment left: [(identifier) (attribute) (subscript)] @name right: (_) @literal) @value.assign

(assignment
  left: [(pattern_list) (tuple_pattern)] @name
  right: (expression_list) @literal) @value.unpack

(default_parameter name: (identifier) @name value: (_) @literal) @value.default
(typed_default_parameter name: (identifier) @name value: (_) @literal) @value.default

(pair key: (string) @key value: (_) @literal) @value.dict

(comment) @text.comment
(string) @text.string

(if_statement
  condition: (comparison_operator (identifier) @_name (string) @_main)
  (#eq? @_name "__name__")
  (#match? @_main "__main__")) @entry.main
