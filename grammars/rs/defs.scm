; Rust definitions. Capture conventions: grammars/README.md.
; Inner parents are wildcards where their fields say which node they are (each compiled
; parent step costs a walk of the parse table: grammars/README.md, "Compile cost"; checked
; against tree-sitter-rust 0.24's node-types.json): `(_ . path: (_) name: (identifier))` is a
; `scoped_identifier`, `(_ . path: (_) name: (type_identifier))` a `scoped_type_identifier`
; (no other node has `path` with that `name`), `(_ . type: (type_identifier) type_arguments:
; (_))` in a type's place a `generic_type` (`generic_type_with_turbofish` is no `_type`),
; `(_ . value: (_) field: (field_identifier))` as a call's function a `field_expression`.
; The `.` before their first field makes a wildcard give up at the node's first child:
; unanchored, it waits over the whole node (a call chain, a closure argument) for a field
; that never comes, which made the walk dearer (grammars/README.md, "Walk cost").
; An `impl_item`'s or `trait_item`'s `body` is always a `declaration_list`; in an impl's
; `type`, `(_ name: (type_identifier))` is a `scoped_type_identifier`.
; The first pattern that matches a node decides its kind: specific patterns come first.

; Items of `impl Type` / `impl Trait for Type` blocks belong to the type: `@owner` for
; every definition directly in `@owner.body` (the item patterns below give their kinds).
(impl_item
  type: [(type_identifier) @owner
         (_ . type: (type_identifier) @owner type_arguments: (_))
         (_ name: (type_identifier) @owner)]
  body: (declaration_list) @owner.body)

; Trait items.
(trait_item
  body: (_
    [(function_item name: (identifier) @name body: (_) @body) @definition.method
     (function_signature_item name: (identifier) @name) @definition.method
     (associated_type name: (type_identifier) @name) @definition.type_alias
     (const_item name: (identifier) @name) @definition.constant]))

(function_item name: (identifier) @name body: (_) @body) @definition.function
(function_signature_item name: (identifier) @name) @definition.function
(macro_definition name: (identifier) @name) @definition.function

(struct_item name: (type_identifier) @name body: (_) @body) @definition.struct
(struct_item name: (type_identifier) @name) @definition.struct
(union_item name: (type_identifier) @name body: (_) @body) @definition.struct
(enum_item name: (type_identifier) @name body: (_) @body) @definition.enum
(trait_item name: (type_identifier) @name body: (_) @body) @definition.trait
(type_item name: (type_identifier) @name) @definition.type_alias
(const_item name: (identifier) @name) @definition.constant
(static_item name: (identifier) @name) @definition.constant
(mod_item name: (identifier) @name body: (_) @body) @definition.module

; Enum variants: constants of the enum (their fields are the variant's properties).
(enum_variant_list (enum_variant name: (identifier) @name) @definition.constant)

; Struct fields.
(field_declaration_list (field_declaration name: (field_identifier) @name) @definition.property)

; Doc comments (`///`, `/** */`) above an item, possibly with attributes in between: a
; `///` comment is a `@doc.line`, a `/** */` one a `@doc.block`, an attribute a
; `@doc.skip`; the reader documents the next named sibling past the attributes, and reads
; a `///` comment with the `@doc.line`s right above it as one run. In place of
; `((line_comment)+ @doc . (attribute_item)* . (_) @doc.for)`: a pattern whose first step
; has no root costs ≈ 2 ms each to compile, and the quantified comments a query state per
; comment of the run, compared pairwise (four tenths of the query walk). Line comments
; first: the first doc pattern to document a definition wins.
((line_comment) @doc.line (#match? @doc.line "^///"))
((block_comment) @doc.block (#match? @doc.block "^/[*][*]"))
(attribute_item) @doc.skip

; Public: `pub` (not `pub(crate)`); trait items, items of trait impls and enum variants are
; as public as the trait or enum. The visibility is an item's first child: the anchor ends the wait for it
; there (a pattern holding `@exported` while it waits would hold back every match inside
; the item until the item ends).
([(function_item . (visibility_modifier) @_v)
  (function_signature_item . (visibility_modifier) @_v)
  (struct_item . (visibility_modifier) @_v)
  (union_item . (visibility_modifier) @_v)
  (enum_item . (visibility_modifier) @_v)
  (trait_item . (visibility_modifier) @_v)
  (type_item . (visibility_modifier) @_v)
  (const_item . (visibility_modifier) @_v)
  (static_item . (visibility_modifier) @_v)
  (mod_item . (visibility_modifier) @_v)
  (field_declaration . (visibility_modifier) @_v)] @exported
  (#eq? @_v "pub"))
(impl_item trait: (_) body: (_ [(function_item) (const_item) (type_item)] @exported))
(trait_item body: (_ [(function_item) (function_signature_item) (associated_type) (const_item)] @exported))
(enum_variant_list (enum_variant) @exported)
