; Rust names bound to types. Capture conventions: grammars/README.md.
; Inner parents are wildcards where their fields say which node they are, anchored at
; their first field (`(_ . path: (_) name: (identifier))`): which node each one is, and why,
; is in defs.scm's header.
; A `match_arm`'s `pattern` is always a `match_pattern`, a `match_expression`'s `body` a
; `match_block`, a `closure_expression`'s `parameters` a `closure_parameters`, and in a
; `let` value `(_ name: [(type_identifier) …])` a `struct_expression` (a
; `scoped_identifier`'s name is never a `type_identifier`).

; fn f(store: &mut SessionStore, s: crate::store::Store)   let x: Store = …
([(parameter pattern: (identifier) @binding.name
    type: [(type_identifier) @binding.type
           (_ . type: (type_identifier) @binding.type type_arguments: (_))
           (_ . path: (_) @binding.qualifier name: (type_identifier) @binding.type)
           (reference_type type: [(type_identifier) @binding.type
                                  (_ . type: (type_identifier) @binding.type type_arguments: (_))
                                  (_ . path: (_) @binding.qualifier name: (type_identifier) @binding.type)])])
  (let_declaration pattern: (identifier) @binding.name
    type: [(type_identifier) @binding.type
           (_ . type: (type_identifier) @binding.type type_arguments: (_))
           (_ . path: (_) @binding.qualifier name: (type_identifier) @binding.type)
           (reference_type type: [(type_identifier) @binding.type
                                  (_ . type: (type_identifier) @binding.type type_arguments: (_))
                                  (_ . path: (_) @binding.qualifier name: (type_identifier) @binding.type)])])] @binding)

; let s = Store::new(…);  let s = Store { … };  let s = mod::Store::new(…)
(let_declaration pattern: (identifier) @binding.name
  value: (call_expression function: (_ .
    path: [(identifier) @binding.type
           (_ . path: (_) @binding.qualifier name: (identifier) @binding.type)]))) @binding
(let_declaration pattern: (identifier) @binding.name
  value: (_ . name: [(type_identifier) @binding.type
                                   (_ . path: (_) @binding.qualifier name: (type_identifier) @binding.type)])) @binding

; Parts of values: a name a loop or a pattern binds is typed by what the declarations
; say that part holds (never guessed; grammars/README.md, `bindings.scm`). The region it
; holds in is `@binding.region`: a loop's body, an `if let`/`while let` block, a match arm.

; for x in self.items / &self.items / v / &mut v / self.items.iter() { … }: an element of
; the value (`Vec<T>`, `[T; N]`, `&[T]`: the manifest's `element_types`).
(for_expression pattern: (identifier) @binding.name
  value: [(field_expression) (identifier)] @binding.of
  body: (block) @binding.region) @binding
(for_expression pattern: (identifier) @binding.name
  value: (reference_expression value: [(field_expression) (identifier)] @binding.of)
  body: (block) @binding.region) @binding
((for_expression pattern: (identifier) @binding.name
   value: (call_expression
     function: (_ . value: [(field_expression) (identifier)] @binding.of
                                 field: (field_identifier) @_m))
   body: (block) @binding.region) @binding
  (#any-of? @_m "iter" "iter_mut" "into_iter"))

; if let Some(x) = self.first { … }, while let Some(x) = v { … }, match v { Some(x) => … }:
; the value an `Option<T>` holds.
((if_expression
   condition: (let_condition pattern: (tuple_struct_pattern type: (identifier) @_some
      [(identifier) @binding.name
       (ref_pattern (identifier) @binding.name)
       (mut_pattern (identifier) @binding.name)]) value: [(field_expression) (identifier)] @binding.of)
   consequence: (block) @binding.region) @binding
  (#eq? @_some "Some") (#not-eq? @binding.name "Some"))
((while_expression
   condition: (let_condition pattern: (tuple_struct_pattern type: (identifier) @_some
      [(identifier) @binding.name
       (ref_pattern (identifier) @binding.name)
       (mut_pattern (identifier) @binding.name)]) value: [(field_expression) (identifier)] @binding.of)
   body: (block) @binding.region) @binding
  (#eq? @_some "Some") (#not-eq? @binding.name "Some"))
((match_expression value: [(field_expression) (identifier)] @binding.of
   body: (_ (match_arm pattern: (_ (tuple_struct_pattern type: (identifier) @_some
      [(identifier) @binding.name
       (ref_pattern (identifier) @binding.name)
       (mut_pattern (identifier) @binding.name)]))) @binding.region)) @binding
  (#eq? @_some "Some") (#not-eq? @binding.name "Some"))

; Fields of what a pattern's constructor takes apart: `Extension(ref s) => s.f()` (the
; variant's positional field, `@binding.position`), `Prefix { rule }`, `Prefix { rule: r }`
; (the named field, `@binding.field`): in a match arm, an `if let`/`while let` block, a
; `let` or a parameter. One pattern per place, its three shapes an alternation (one
; parent step to compile, not three). In a pattern's place, `(_ . type: [(identifier) …])`
; is a `tuple_struct_pattern` and `(_ . type: [(type_identifier) …])` a `struct_pattern`
; (the only patterns with a `type`; a match guard's `type_cast_expression` has neither an
; `identifier` type nor `field_pattern`s).
(match_arm pattern: (_
  [(_ . type: [(identifier) @binding.type
                 (_ . path: (_) @binding.qualifier name: (identifier) @binding.type)]
       [(identifier) @binding.name
        (ref_pattern (identifier) @binding.name)
        (mut_pattern (identifier) @binding.name)] @binding.position)
     (_ . type: [(type_identifier) @binding.type
                 (_ . path: (_) @binding.qualifier name: (type_identifier) @binding.type)]
       (field_pattern name: (shorthand_field_identifier) @binding.name @binding.field))
     (_ . type: [(type_identifier) @binding.type
                 (_ . path: (_) @binding.qualifier name: (type_identifier) @binding.type)]
       (field_pattern name: (field_identifier) @binding.field
         pattern: [(identifier) @binding.name
                   (ref_pattern (identifier) @binding.name)
                   (mut_pattern (identifier) @binding.name)]))])) @binding @binding.region
(if_expression condition: (let_condition pattern:
  [(_ . type: [(identifier) @binding.type
                 (_ . path: (_) @binding.qualifier name: (identifier) @binding.type)]
       [(identifier) @binding.name
        (ref_pattern (identifier) @binding.name)
        (mut_pattern (identifier) @binding.name)] @binding.position)
     (_ . type: [(type_identifier) @binding.type
                 (_ . path: (_) @binding.qualifier name: (type_identifier) @binding.type)]
       (field_pattern name: (shorthand_field_identifier) @binding.name @binding.field))
     (_ . type: [(type_identifier) @binding.type
                 (_ . path: (_) @binding.qualifier name: (type_identifier) @binding.type)]
       (field_pattern name: (field_identifier) @binding.field
         pattern: [(identifier) @binding.name
                   (ref_pattern (identifier) @binding.name)
                   (mut_pattern (identifier) @binding.name)]))])
  consequence: (block) @binding.region) @binding
(while_expression condition: (let_condition pattern:
  [(_ . type: [(identifier) @binding.type
                 (_ . path: (_) @binding.qualifier name: (identifier) @binding.type)]
       [(identifier) @binding.name
        (ref_pattern (identifier) @binding.name)
        (mut_pattern (identifier) @binding.name)] @binding.position)
     (_ . type: [(type_identifier) @binding.type
                 (_ . path: (_) @binding.qualifier name: (type_identifier) @binding.type)]
       (field_pattern name: (shorthand_field_identifier) @binding.name @binding.field))
     (_ . type: [(type_identifier) @binding.type
                 (_ . path: (_) @binding.qualifier name: (type_identifier) @binding.type)]
       (field_pattern name: (field_identifier) @binding.field
         pattern: [(identifier) @binding.name
                   (ref_pattern (identifier) @binding.name)
                   (mut_pattern (identifier) @binding.name)]))])
  body: (block) @binding.region) @binding
(let_declaration pattern:
  [(_ . type: [(identifier) @binding.type
                 (_ . path: (_) @binding.qualifier name: (identifier) @binding.type)]
       [(identifier) @binding.name
        (ref_pattern (identifier) @binding.name)
        (mut_pattern (identifier) @binding.name)] @binding.position)
     (_ . type: [(type_identifier) @binding.type
                 (_ . path: (_) @binding.qualifier name: (type_identifier) @binding.type)]
       (field_pattern name: (shorthand_field_identifier) @binding.name @binding.field))
     (_ . type: [(type_identifier) @binding.type
                 (_ . path: (_) @binding.qualifier name: (type_identifier) @binding.type)]
       (field_pattern name: (field_identifier) @binding.field
         pattern: [(identifier) @binding.name
                   (ref_pattern (identifier) @binding.name)
                   (mut_pattern (identifier) @binding.name)]))]) @binding
(parameter pattern:
  [(_ . type: [(identifier) @binding.type
                 (_ . path: (_) @binding.qualifier name: (identifier) @binding.type)]
       [(identifier) @binding.name
        (ref_pattern (identifier) @binding.name)
        (mut_pattern (identifier) @binding.name)] @binding.position)
     (_ . type: [(type_identifier) @binding.type
                 (_ . path: (_) @binding.qualifier name: (type_identifier) @binding.type)]
       (field_pattern name: (shorthand_field_identifier) @binding.name @binding.field))
     (_ . type: [(type_identifier) @binding.type
                 (_ . path: (_) @binding.qualifier name: (type_identifier) @binding.type)]
       (field_pattern name: (field_identifier) @binding.field
         pattern: [(identifier) @binding.name
                   (ref_pattern (identifier) @binding.name)
                   (mut_pattern (identifier) @binding.name)]))]) @binding

; Local names (`@local.name`): parameters, `let` and loop bindings of a function, and
; closure parameters (`@local.scope`: the closure). A bare call of one (`parse(x)` with
; `parse: impl Fn(…)`, `|matched| matched(…)`) is the local, never a function elsewhere.
(closure_expression
  parameters: (_
    [(identifier) @local.name
     (parameter pattern: (identifier) @local.name)])) @local.scope
(parameter pattern: [(identifier) @local.name
                     (tuple_pattern (identifier) @local.name)])
(let_declaration pattern: [(identifier) @local.name
                           (tuple_pattern (identifier) @local.name)])
(for_expression pattern: [(identifier) @local.name
                          (tuple_pattern (identifier) @local.name)])
(let_condition pattern: (tuple_struct_pattern (identifier) @local.name))
