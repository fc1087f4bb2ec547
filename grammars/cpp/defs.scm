; C++ definitions. Capture conventions: grammars/README.md.
; The first pattern that matches a node decides its kind: specific patterns come first.
; Declarations without a body (prototypes, in-class method declarations) are not nodes: the
; definition is, wherever it is (`void Foo::bar() {}` in a .cpp file, qualified by `@owner`),
; so callers and callees meet on one node. Pure virtual methods (`= 0`) have no definition
; anywhere: they are nodes of their class.

; Out-of-class definitions: `R Foo::bar(…) { … }`, constructors `Foo::Foo(…)`, templates
; `Box<T>::open()`, and nested scopes `ns::Foo::bar()`. The owner is the path before the
; name (`@owner.path`, generic arguments left out): `ScriptCompiler::Source::Source` inside
; `namespace v8 { … }` is `v8.ScriptCompiler.Source.Source` like the nested class's members,
; `ns::Foo::bar` at file level `ns.Foo.bar`.
(function_definition
  declarator: [(function_declarator declarator: (qualified_identifier scope: [(namespace_identifier) @owner (template_type name: (type_identifier) @owner)] name: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))
               (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier scope: [(namespace_identifier) @owner (template_type name: (type_identifier) @owner)] name: [(identifier) (operator_name)] @name)))
               (reference_declarator (function_declarator declarator: (qualified_identifier scope: [(namespace_identifier) @owner (template_type name: (type_identifier) @owner)] name: [(identifier) (operator_name)] @name)))
               (function_declarator declarator: (qualified_identifier name: (qualified_identifier scope: [(namespace_identifier) @owner (template_type name: (type_identifier) @owner)] name: [(identifier) (destructor_name) (operator_name)] @name)) @owner.path)
               (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier name: (qualified_identifier scope: [(namespace_identifier) @owner (template_type name: (type_identifier) @owner)] name: [(identifier) (operator_name)] @name)) @owner.path))
               (reference_declarator (function_declarator declarator: (qualified_identifier name: (qualified_identifier scope: [(namespace_identifier) @owner (template_type name: (type_identifier) @owner)] name: [(identifier) (operator_name)] @name)) @owner.path))
               (function_declarator declarator: (qualified_identifier name: (qualified_identifier name: (qualified_identifier scope: [(namespace_identifier) @owner (template_type name: (type_identifier) @owner)] name: [(identifier) (destructor_name) (operator_name)] @name))) @owner.path)]
  body: (_) @body) @definition.method

; Methods defined in a class body, and pure virtual methods.
(field_declaration_list
  (function_definition
    declarator: [(function_declarator declarator: [(field_identifier) (identifier) (destructor_name) (operator_name)] @name)
                 (pointer_declarator declarator: (function_declarator declarator: (field_identifier) @name))
                 (reference_declarator (function_declarator declarator: (field_identifier) @name))]
    body: (_) @body) @definition.method)
(field_declaration_list
  (field_declaration declarator: (function_declarator declarator: (field_identifier) @name) default_value: (_)) @definition.method)

(function_definition
  declarator: [(function_declarator declarator: (identifier) @name)
               (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
               (reference_declarator (function_declarator declarator: (identifier) @name))]
  body: (_) @body) @definition.function

(class_specifier name: (type_identifier) @name body: (_) @body) @definition.class
(struct_specifier name: (type_identifier) @name body: (_) @body) @definition.struct
(union_specifier name: (type_identifier) @name body: (_) @body) @definition.struct
(enum_specifier name: (type_identifier) @name body: (_) @body) @definition.enum
(enumerator name: (identifier) @name) @definition.constant
(namespace_definition name: (namespace_identifier) @name body: (_) @body) @definition.module
(type_definition declarator: (type_identifier) @name) @definition.type_alias
(alias_declaration name: (type_identifier) @name) @definition.type_alias
(preproc_def name: (identifier) @name) @definition.constant
(preproc_function_def name: (identifier) @name) @definition.function

; Data members (not method declarations).
(field_declaration_list
  (field_declaration declarator: [(field_identifier) @name
                                  (pointer_declarator declarator: (field_identifier) @name)
                                  (array_declarator declarator: (field_identifier) @name)]) @definition.property)

; Namespace-level constants: `constexpr int X = 1;`, `const int X = 1;`.
([(translation_unit (declaration (type_qualifier) declarator: (init_declarator declarator: (identifier) @name)) @definition.constant)
  (declaration_list (declaration (type_qualifier) declarator: (init_declarator declarator: (identifier) @name)) @definition.constant)])

; Doc comments (`///`, `/** */`) right above a definition.
((comment)+ @doc . (_) @doc.for
  (#match? @doc "^(///|/[*][*])"))
(template_declaration (comment)+ @doc . (_) @doc.for
  (#match? @doc "^(///|/[*][*])"))
((comment)+ @doc . (template_declaration (_) @doc.for)
  (#match? @doc "^(///|/[*][*])"))

; Public: everything outside an anonymous namespace that is not `static` or in a
; private/protected section is reachable from other files; navmap marks definitions at
; namespace level and in structs as exported, `static` ones not.
(translation_unit [(function_definition) (class_specifier) (struct_specifier) (union_specifier) (enum_specifier) (type_definition) (alias_declaration) (preproc_def) (preproc_function_def) (namespace_definition) (declaration)] @exported)
(declaration_list [(function_definition) (class_specifier) (struct_specifier) (union_specifier) (enum_specifier) (type_definition) (alias_declaration) (declaration)] @exported)
(template_declaration (function_definition) @exported)
(translation_unit (template_declaration [(class_specifier) (struct_specifier)] @exported))
(function_definition (storage_class_specifier) @_s (#eq? @_s "static")) @unexported
; Members: public in a struct/union by default and after `public:`; not after `private:` or
; `protected:` (which wins when a class switches back and forth: an approximation).
([(struct_specifier body: (field_declaration_list [(field_declaration) (function_definition) (declaration)] @exported))
  (union_specifier body: (field_declaration_list [(field_declaration) (function_definition) (declaration)] @exported))])
(field_declaration_list (access_specifier) @_a [(field_declaration) (function_definition) (declaration)] @exported (#eq? @_a "public"))
(field_declaration_list (access_specifier) @_a [(field_declaration) (function_definition) (declaration)] @unexported (#match? @_a "^(private|protected)$"))

; Arity (crates/extract/src/arity.rs): the parameter list beside a function's name, the
; parameters with a default, the variadic ones (`...`, a pack `Args... args`), and C's
; `(void)`, which declares none.
(parameter_list) @parameters
(optional_parameter_declaration) @parameter.optional
(variadic_parameter_declaration) @parameter.variadic
(parameter_list "..." @parameter.variadic)
(parameter_list . (parameter_declaration type: (primitive_type) @_t !declarator) @parameter.none . (#eq? @_t "void"))

; Parameter shapes (crates/extract/src/arity.rs), so that overloads taking as many
; arguments are weighed by their arguments' kinds: a parameter's declarator — a plain name
; or none (`@parameter.value`), one pointer, one reference, one rvalue reference; a
; declarator these do not describe (an array, `T** p`, `T*& p`) is `Other` —, its type
; (`std::nullptr_t`, a number), a `const` type, its type's node and its name; and the
; template parameters around a definition (`$T` of the class, `?U` of a function template:
; deduced, so anything).
([(parameter_declaration type: (_) @parameter.type !declarator)
  (optional_parameter_declaration type: (_) @parameter.type !declarator)] @parameter.value)
([(parameter_declaration type: (_) @parameter.type declarator: (identifier) @parameter.name)
  (optional_parameter_declaration type: (_) @parameter.type declarator: (identifier) @parameter.name)] @parameter.value)
([(parameter_declaration type: (_) @parameter.type declarator: [(pointer_declarator declarator: (identifier) @parameter.name) (abstract_pointer_declarator !declarator)])
  (optional_parameter_declaration type: (_) @parameter.type declarator: (pointer_declarator declarator: (identifier) @parameter.name))] @parameter.pointer)
([(parameter_declaration type: (_) @parameter.type declarator: (reference_declarator "&" (identifier) @parameter.name))
  (optional_parameter_declaration type: (_) @parameter.type declarator: (reference_declarator "&" (identifier) @parameter.name))] @parameter.reference)
([(parameter_declaration type: (_) @parameter.type declarator: (reference_declarator "&&" (identifier) @parameter.name))
  (optional_parameter_declaration type: (_) @parameter.type declarator: (reference_declarator "&&" (identifier) @parameter.name))] @parameter.rvalue)
(([(parameter_declaration type: (_) @_t) (optional_parameter_declaration type: (_) @_t)] @parameter.null)
  (#match? @_t "^(std::)?nullptr_t$"))
([(parameter_declaration type: [(primitive_type) (sized_type_specifier)])
  (optional_parameter_declaration type: [(primitive_type) (sized_type_specifier)])] @parameter.arithmetic)
(([(parameter_declaration (type_qualifier) @_q) (optional_parameter_declaration (type_qualifier) @_q)] @parameter.const)
  (#eq? @_q "const"))
(function_declarator [(type_qualifier) (ref_qualifier)] @parameters.qualifier)
(template_declaration
  parameters: (template_parameter_list
    [(type_parameter_declaration (type_identifier) @template.parameter)
     (variadic_type_parameter_declaration (type_identifier) @template.parameter)
     (optional_type_parameter_declaration name: (type_identifier) @template.parameter)])) @template
; A function's declared result (an argument that calls a method of the caller's class,
; `BasicPersistent(other.Get(), loc)`, is what it returns): a value, a pointer, a number.
(function_definition type: (_) @result.type declarator: (function_declarator)) @result.value
(function_definition type: (_) @result.type declarator: (pointer_declarator declarator: (function_declarator))) @result.pointer
(function_definition type: [(primitive_type) (sized_type_specifier)] declarator: (function_declarator)) @result.arithmetic
((function_definition (type_qualifier) @_q) @result.const (#eq? @_q "const"))
