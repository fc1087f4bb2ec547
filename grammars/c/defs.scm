; C definitions. Capture conventions: grammars/README.md.
; The first pattern that matches a node decides its kind: specific patterns come first.
; Prototypes (`bool store_refresh(…);`) are not nodes: the definition is, wherever it is, so
; callers and callees meet on one node (a call resolves to the only visible definition of
; its name; two `static` functions of one name stay candidates).

(function_definition
  declarator: [(function_declarator declarator: (identifier) @name)
               (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
               (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))]
  body: (_) @body) @definition.function

(struct_specifier name: (type_identifier) @name body: (_) @body) @definition.struct
(union_specifier name: (type_identifier) @name body: (_) @body) @definition.struct
(enum_specifier name: (type_identifier) @name body: (_) @body) @definition.enum
(enumerator name: (identifier) @name) @definition.constant
; `typedef struct { … } Point;`: the typedef names an anonymous struct: it is the struct.
(type_definition type: (struct_specifier !name body: (_)) declarator: (type_identifier) @name) @definition.struct
(type_definition type: (union_specifier !name body: (_)) declarator: (type_identifier) @name) @definition.struct
(type_definition type: (enum_specifier !name body: (_)) declarator: (type_identifier) @name) @definition.enum
; `typedef struct point_s { … } Point;`: the struct is a node, the alias is its own node (on
; the name, so the struct is not nested in it); `typedef struct Point { … } Point;` is the
; struct alone.
(type_definition type: [(struct_specifier name: (_) @_tag body: (_))
                        (union_specifier name: (_) @_tag body: (_))
                        (enum_specifier name: (_) @_tag body: (_))]
  declarator: (type_identifier) @name @definition.type_alias
  (#not-eq? @name @_tag))
(type_definition
  type: [(primitive_type) (sized_type_specifier) (type_identifier) (macro_type_specifier)
         (struct_specifier !body) (union_specifier !body) (enum_specifier !body)]
  declarator: [(type_identifier) @name
               (pointer_declarator declarator: (type_identifier) @name)
               (array_declarator declarator: (type_identifier) @name)
               (function_declarator declarator: (type_identifier) @name)
               (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))]) @definition.type_alias
; Include guards (`#define X_H` without a value) are not constants.
(preproc_def name: (identifier) @name value: (_)) @definition.constant
(preproc_function_def name: (identifier) @name) @definition.function

; Members, function pointers included (`bool (*refresh)(…)`: the "methods" of a table of
; operations).
(field_declaration_list
  (field_declaration declarator: [(field_identifier) @name
                                  (pointer_declarator declarator: (field_identifier) @name)
                                  (pointer_declarator declarator: (pointer_declarator declarator: (field_identifier) @name))
                                  (array_declarator declarator: (field_identifier) @name)
                                  (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name)))
                                  (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name))))]) @definition.property)

; File-level objects with an initialiser: `const` ones are constants, others variables.
; `extern` declarations without one are not nodes (like prototypes).
(translation_unit (declaration (type_qualifier) @_q
  declarator: (init_declarator declarator: [(identifier) @name
                                            (pointer_declarator declarator: (identifier) @name)
                                            (array_declarator declarator: (identifier) @name)
                                            (pointer_declarator declarator: (array_declarator declarator: (identifier) @name))
                                            (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @name))])) @definition.constant
  (#eq? @_q "const"))
(translation_unit (declaration
  declarator: (init_declarator declarator: [(identifier) @name
                                            (pointer_declarator declarator: (identifier) @name)
                                            (array_declarator declarator: (identifier) @name)
                                            (pointer_declarator declarator: (array_declarator declarator: (identifier) @name))])) @definition.variable)

; Doc comments (`/** */`, `///`) right above a definition.
((comment)+ @doc . (_) @doc.for
  (#match? @doc "^(///|/[*][*])"))

; Public: file-level definitions not declared `static` (external linkage).
(translation_unit [(function_definition) (struct_specifier) (union_specifier) (enum_specifier) (type_definition) (preproc_def) (preproc_function_def) (declaration)] @exported)
(preproc_ifdef [(function_definition) (struct_specifier) (union_specifier) (enum_specifier) (type_definition) (preproc_def) (preproc_function_def) (declaration)] @exported)
(translation_unit (type_definition [(struct_specifier) (union_specifier) (enum_specifier) (type_identifier)] @exported))
(preproc_ifdef (type_definition [(struct_specifier) (union_specifier) (enum_specifier) (type_identifier)] @exported))
; Members of a struct or union are as visible as the type.
(field_declaration_list (field_declaration) @exported)
(function_definition (storage_class_specifier) @_s (#eq? @_s "static")) @unexported
(declaration (storage_class_specifier) @_s (#eq? @_s "static")) @unexported
