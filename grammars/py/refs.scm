; Python uses of names. Capture conventions: grammars/README.md.
;
; `(_ …)` parents: where a field or the place already says which node it is, the parent is a
; wildcard (`(_ object: … attribute: …)` is an `attribute`, a class's `body: (_ …)` its
; `block`): tree-sitter analyses each named parent from every parse state where that node
; can begin, and this query's named parents were most of a one-file re-index (grammars/README.md,
; "Compile cost"). Each rewrite matches what the named form matched; the comments say why.

; Calls: `f(…)`, `obj.attr.f(…)`. `object:`/`attribute:` belong to `attribute` only,
; `function:`/`arguments:` to `call` only.
(call function: [(identifier) @name
                 (_ object: (_) @qualifier attribute: (identifier) @name)]) @reference.call

; Base classes: `class C(Base, mod.Base)`; keyword arguments (metaclass=…) are not bases.
(class_definition
  superclasses: (_
    [(identifier) @name
     (_ object: (_) @qualifier attribute: (identifier) @name)] @reference.extends))

; Decorators.
(decorator (identifier) @name) @reference.decorator
(decorator (_ object: (_) @qualifier attribute: (identifier) @name)) @reference.decorator
(decorator (_ function: (identifier) @name)) @reference.decorator
(decorator (_ function: (_ object: (_) @qualifier attribute: (identifier) @name))) @reference.decorator

; Type annotations, including generics (`Dict[str, Session]`) and forward references ("Session").
; In a `type`, `value:` belongs to `subscript` or `named_expression` (`!name` leaves the
; latter out), `subscript:` to `subscript` only, `string_content` to `string` only.
(type (identifier) @name) @reference.type
(type (_ object: (_) @qualifier attribute: (identifier) @name)) @reference.type
(generic_type (identifier) @name) @reference.type
(type (_ !name value: (identifier) @name)) @reference.type
(type (_ !name value: (_ object: (_) @qualifier attribute: (identifier) @name))) @reference.type
(type (_ subscript: (identifier) @name)) @reference.type
((type (_ (string_content) @name)) @reference.type
  (#match? @name "^[A-Za-z_][A-Za-z0-9_]*$"))

; Mentions: names used as values, which resolution does not link but an answer about the
; uses of a symbol must account for (a bound method passed as a callback, a function in a
; table, a reflective `getattr(obj, "name")`). Not edges: `@mention`.
(attribute object: (_) @qualifier attribute: (identifier) @name) @mention
(argument_list (identifier) @name) @mention
(keyword_argument value: (identifier) @name) @mention
(assignment right: (identifier) @name) @mention
(return_statement (identifier) @name) @mention
(list (identifier) @name) @mention
(tuple (identifier) @name) @mention
(set (identifier) @name) @mention
(pair value: (identifier) @name) @mention
((call
   function: (identifier) @_f
   arguments: (_ . (_) @qualifier . (_ (string_content) @name)))
  (#any-of? @_f "getattr" "hasattr" "setattr" "delattr")) @mention
