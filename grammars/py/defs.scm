; Python definitions. Capture conventions: grammars/README.md.
; The first pattern that matches a node decides its kind: specific patterns come first.

; Methods: functions directly in a class body (decorated or not).
(class_definition
  body: (_
    [(function_definition name: (identifier) @name body: (_) @body) @definition.method
     (_
       definition: (function_definition name: (identifier) @name body: (_) @body) @definition.method)]))

(function_definition name: (identifier) @name body: (_) @body) @definition.function

(class_definition name: (identifier) @name body: (_) @body) @definition.class

; Enum members: attributes of a class whose base is an enum type (`class Color(Enum)`,
; `enum.IntFlag`) are constants ("the members of Color" is then a kind filter).
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

; Docstrings: the first statement of a body, when it is a string.
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
