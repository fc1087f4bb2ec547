; Python definitions. Capture conventions: grammars/README.md.
; The first pattern that matches a node decides its kind: specific patterns come first.
;
; `(_ …)` parents: where a field or the place already says which node it is, the parent is a
; wildcard (`(_ object: … attribute: …)` is an `attribute`, a class's `body: (_ …)` its
; `block`): tree-sitter analyses each named parent from every parse state where that node
; can begin, and this query's named parents were most of a one-file re-index (grammars/README.md,
; "Compile cost"). Each rewrite matches what the named form matched; the comments say why.

; Methods: functions directly in a class body (decorated or not). `body:` is a `block`;
; `definition:` belongs to `decorated_definition` only. Two patterns, not one alternation:
; a class's state waits for its body's items through the whole body, and an alternation
; there waits once per branch and is split again at every item (grammars/README.md,
; "Walk cost").
(class_definition
  body: (_
    (function_definition name: (identifier) @name body: (_) @body) @definition.method))
(class_definition
  body: (_
    (_
      definition: (function_definition name: (identifier) @name body: (_) @body) @definition.method)))

(function_definition name: (identifier) @name body: (_) @body) @definition.function

(class_definition name: (identifier) @name body: (_) @body) @definition.class

; Enum members: attributes of a class whose base is an enum type (`class Color(Enum)`,
; `enum.IntFlag`) are constants ("the members of Color" is then a kind filter).
; `superclasses:` is an `argument_list`; `attribute:` belongs to `attribute` only; in a block
; or module only an `expression_statement` holds an `assignment` as a child.
(class_definition
  superclasses: (_ [(identifier) @_base (_ attribute: (identifier) @_base)])
  body: (_
    (_
      (assignment left: (identifier) @name) @definition.constant))
  (#match? @_base "^(Enum|IntEnum|StrEnum|Flag|IntFlag|ReprEnum)$"))

; Class attributes: `x = …` / `x: T = …` directly in a class body.
(class_definition
  body: (_
    (_
      (assignment left: (identifier) @name) @definition.property)))

; Module-level names: UPPER_CASE ones are constants, the rest variables.
(module
  (_
    (assignment left: (identifier) @name) @definition.constant)
  (#match? @name "^_*[A-Z][A-Z0-9_]*$"))

(module
  (_
    (assignment left: (identifier) @name) @definition.variable))

; Type aliases: `type X = …` (3.12).
(type_alias_statement left: (type (identifier) @name)) @definition.type_alias

; Docstrings: the first statement of a body, when it is a string. (`expression_statement`
; stays named: `return "x"`, `assert "x"` hold a string too.)
(function_definition
  body: (_ . (expression_statement (string) @doc))) @doc.for
(class_definition
  body: (_ . (expression_statement (string) @doc))) @doc.for

; Public: no leading underscore (`__init__` and friends are not part of the API surface).
([(function_definition name: (identifier) @_n)
  (class_definition name: (identifier) @_n)] @exported
  (#not-match? @_n "^_"))
((assignment left: (identifier) @_n) @exported
  (#not-match? @_n "^_"))
