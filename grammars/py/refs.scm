; Python uses of names. Capture conventions: grammars/README.md.

; Calls: `f(…)`, `obj.attr.f(…)`.
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
