; Java definitions. Capture conventions: grammars/README.md.
; The first pattern that matches a node decides its kind: specific patterns come first.

(class_declaration name: (identifier) @name body: (_) @body) @definition.class
(record_declaration name: (identifier) @name body: (_) @body) @definition.class
(interface_declaration name: (identifier) @name body: (_) @body) @definition.interface
(annotation_type_declaration name: (identifier) @name body: (_) @body) @definition.interface
(enum_declaration name: (identifier) @name body: (_) @body) @definition.enum

; Enum constants are nodes, so "the members of an enum" is answerable.
(enum_constant name: (identifier) @name) @definition.constant

; Members: methods and constructors are methods; `static final` fields are constants,
; other fields properties.
(method_declaration name: (identifier) @name body: (_) @body) @definition.method
; Without a body (interfaces, `abstract`, `native`): the signature runs to the `;`, so
; annotations on lines of their own don't stand in for it.
(method_declaration name: (identifier) @name !body ";" @body) @definition.method
(method_declaration name: (identifier) @name !body) @definition.method
(constructor_declaration name: (identifier) @name body: (_) @body) @definition.method
(compact_constructor_declaration name: (identifier) @name body: (_) @body) @definition.method
; `@context`: the signature starts at the field's modifiers and type.
((field_declaration (modifiers) @_m declarator: (variable_declarator name: (identifier) @name) @definition.constant) @context
  (#match? @_m "static")
  (#match? @_m "final"))
(field_declaration declarator: (variable_declarator name: (identifier) @name) @definition.property) @context
(interface_body (constant_declaration declarator: (variable_declarator name: (identifier) @name) @definition.constant) @context)

; Javadoc: a `/** … */` comment right before a declaration.
((block_comment) @doc . (_) @doc.for
  (#match? @doc "^/[*][*]"))

; Visibility: `public` (and interface members, public by default) are exported; `private`
; is not, whatever else said it was.
((_ (modifiers) @_m) @exported (#match? @_m "public"))
(interface_body (method_declaration) @exported)
(interface_body (constant_declaration (variable_declarator) @exported))
(enum_body (enum_constant) @exported)
((field_declaration (modifiers) @_m declarator: (variable_declarator) @exported) (#match? @_m "public"))
((_ (modifiers) @_m) @unexported (#match? @_m "private"))
((field_declaration (modifiers) @_m declarator: (variable_declarator) @unexported) (#match? @_m "private"))

; Arity (crates/extract/src/arity.rs): a method's or constructor's parameters; varargs
; (`T... xs`) take any number; a receiver parameter (`Foo this`) is none.
(formal_parameters) @parameters
(spread_parameter) @parameter.variadic
(receiver_parameter) @parameter.none

; Parameter shapes (crates/extract/src/arity.rs), so that overloads of one arity are
; weighed by their arguments' kinds: a parameter of a class type is a value of that type,
; generic arguments left out (`Iterable<Option>` → `Iterable`: what tells Java overloads
; apart is the erasure); a primitive type is arithmetic; an array (`T[] xs`, `String
; xs[]`) has no shape. Type parameters (`<T>`): a generic method's own are deduced (`?T`),
; a class's are fixed (`$T`); the method declares its own, so it is no template in C++'s
; sense (it does not lose a tie). A method's declared result, so that an argument calling
; a method of the caller's class (`getParsedOptionValues(resolveOption(name))`) is typed.
(formal_parameter type: [(type_identifier) (scoped_type_identifier)] @parameter.type name: (identifier) @parameter.name !dimensions) @parameter.value
(formal_parameter type: (generic_type . [(type_identifier) (scoped_type_identifier)] @parameter.type) name: (identifier) @parameter.name !dimensions) @parameter.value
(formal_parameter type: [(integral_type) (floating_point_type) (boolean_type)] @parameter.type name: (identifier) @parameter.name !dimensions) @parameter.value
(formal_parameter type: [(integral_type) (floating_point_type) (boolean_type)] !dimensions) @parameter.arithmetic
([(method_declaration type_parameters: (type_parameters (type_parameter . (type_identifier) @template.parameter)))
  (constructor_declaration type_parameters: (type_parameters (type_parameter . (type_identifier) @template.parameter)))
  (class_declaration type_parameters: (type_parameters (type_parameter . (type_identifier) @template.parameter)))
  (interface_declaration type_parameters: (type_parameters (type_parameter . (type_identifier) @template.parameter)))
  (record_declaration type_parameters: (type_parameters (type_parameter . (type_identifier) @template.parameter)))] @template)
(method_declaration type: [(type_identifier) (scoped_type_identifier)] @result.type !dimensions) @result.value
(method_declaration type: (generic_type . [(type_identifier) (scoped_type_identifier)] @result.type) !dimensions) @result.value
(method_declaration type: [(integral_type) (floating_point_type) (boolean_type)] @result.type !dimensions) @result.arithmetic
; Locals with a written type, so that an argument naming one is typed as a parameter is
; (`resize(builder, fraction)` with `final TextStyle.Builder builder = …`): the name, its
; type (`@variable.type`, a class's erasure; `@variable.arithmetic`, a primitive) and the block
; or statement it is visible in (`@variable.scope`). `var`, arrays, lambda and catch
; parameters are not captured: a name only they declare stays unknown.
((_ (local_variable_declaration type: [(type_identifier) (scoped_type_identifier)] @variable.type
     declarator: (variable_declarator name: (identifier) @variable.name !dimensions))) @variable.scope
 (#not-eq? @variable.type "var"))
(_ (local_variable_declaration type: (generic_type . [(type_identifier) (scoped_type_identifier)] @variable.type)
    declarator: (variable_declarator name: (identifier) @variable.name !dimensions))) @variable.scope
(_ (local_variable_declaration type: [(integral_type) (floating_point_type) (boolean_type)] @variable.arithmetic
    declarator: (variable_declarator name: (identifier) @variable.name !dimensions))) @variable.scope
(enhanced_for_statement type: [(type_identifier) (scoped_type_identifier)] @variable.type name: (identifier) @variable.name !dimensions) @variable.scope
(enhanced_for_statement type: (generic_type . [(type_identifier) (scoped_type_identifier)] @variable.type) name: (identifier) @variable.name !dimensions) @variable.scope
(enhanced_for_statement type: [(integral_type) (floating_point_type) (boolean_type)] @variable.arithmetic name: (identifier) @variable.name !dimensions) @variable.scope
