; C++ uses of names. Capture conventions: grammars/README.md.
; The grammar crate's TAGS_QUERY has no calls: these are navmap's own.

; Calls: `f()`, `ns::f()`, `obj.m()`, `p->m()`, `this->m()`, templates.
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (template_function name: (identifier) @name)) @reference.call
(call_expression function: (qualified_identifier scope: (_) @qualifier name: [(identifier) @name (template_function name: (identifier) @name)])) @reference.call
; `a::B::f()`, `a::b::C::f()`: the grammar nests the path to the right; the qualifier is
; the path's text before the name (`@qualifier.path`).
(call_expression function: (qualified_identifier name: (qualified_identifier name: [(identifier) @name (template_function name: (identifier) @name)])) @qualifier.path) @reference.call
(call_expression function: (qualified_identifier name: (qualified_identifier name: (qualified_identifier name: [(identifier) @name (template_function name: (identifier) @name)]))) @qualifier.path) @reference.call
(call_expression function: (field_expression argument: (_) @qualifier field: (field_identifier) @name)) @reference.call
(call_expression function: (field_expression argument: (_) @qualifier field: (dependent_name (template_method name: (field_identifier) @name)))) @reference.call
(call_expression function: (field_expression argument: (_) @qualifier field: (template_method name: (field_identifier) @name))) @reference.call

; Construction: `new Foo(…)`.
(new_expression type: (type_identifier) @name) @reference.call

; A member-initializer list's entries that name a constructor: a delegation (`Handle(int
; raw, int extra) : Handle(raw + extra) {}`) or a base's (`: PersistentBase<T>(nullptr)`,
; `: internal::Base(x)`): calls. A field's entry (`raw_(raw)`) resolves to the field (a use
; of it, as clangd lists it). A delegation to an overloaded constructor is linked to the
; overloads that accept its number of arguments (`@arguments` below).
(field_initializer [(field_identifier) @name (template_method name: (field_identifier) @name)] (argument_list)) @reference.call
(field_initializer (qualified_identifier scope: (_) @qualifier name: [(identifier) @name (type_identifier) @name (template_type name: (type_identifier) @name) (template_function name: (identifier) @name)]) (argument_list)) @reference.call

; Base classes extend (C++ has no separate interfaces).
(base_class_clause [(type_identifier) @name (template_type name: (type_identifier) @name)] @reference.extends)
(base_class_clause (qualified_identifier scope: (_) @qualifier name: (type_identifier) @name) @reference.extends)

; A forward declaration (`class Function;`, `template <class T> class Persistent;`) names what it
; declares: no use of it.
(declaration_list [(class_specifier name: (type_identifier) @name !body) (struct_specifier name: (type_identifier) @name !body) (union_specifier name: (type_identifier) @name !body)] @reference.not)
(translation_unit [(class_specifier name: (type_identifier) @name !body) (struct_specifier name: (type_identifier) @name !body) (union_specifier name: (type_identifier) @name !body)] @reference.not)
(template_declaration [(class_specifier name: (type_identifier) @name !body) (struct_specifier name: (type_identifier) @name !body)] @reference.not)
; So does a template's friend declaration (`template <class F1, class F2> friend class
; Persistent;` redeclares the template, clangd lists no use); a plain `friend class X;` is one.
(template_declaration (friend_declaration (type_identifier) @name) @reference.not)

; Types anywhere; definition names are left out by the engine.
((type_identifier) @name @reference.type)
(qualified_identifier scope: (_) @qualifier name: (type_identifier) @name) @reference.type
; The scopes of a path are uses of what they name: `WriteBarrier::ValueMode::kValuePresent`
; uses the class `WriteBarrier` and its member `ValueMode`; `ScriptCompiler::Source::Source()`
; the class `ScriptCompiler` (a definition's own owner is left out by the engine). A
; namespace's name resolves to no edge.
((qualified_identifier scope: (namespace_identifier) @name) @reference.type)
(qualified_identifier name: (qualified_identifier scope: (namespace_identifier) @name) @reference.type) @qualifier.path

; A call's argument count (crates/extract/src/arity.rs): the argument list of a call, a
; `new`, a member initializer; a pack expansion (`f(args...)`) makes it unknown.
(argument_list) @arguments
(argument_list (parameter_pack_expansion) @argument.spread)

; A macro's body is one unparsed token (`preproc_arg`): its words are mentions from the
; macro (`#define U16_GET(s, i, c) … U16_IS_TRAIL(…)` mentions `U16_IS_TRAIL`). Not edges.
(preproc_function_def value: (preproc_arg) @mention.text)
(preproc_def value: (preproc_arg) @mention.text)

; A call's arguments' kinds (crates/extract/src/arity.rs), where the text alone says them:
; `nullptr`, the literal `0`, another number, a character or truth value, a string,
; `this`; a name (typed by the enclosing function's parameter of that name) or its address
; (`&raw`). `NULL` is left unknown: a macro, `0` or `nullptr` or `__null`.
((argument_list (null) @argument.null) (#eq? @argument.null "nullptr"))
(argument_list (this) @argument.pointer)
(argument_list [(true) (false) (char_literal) (number_literal)] @argument.arithmetic)
((argument_list (number_literal) @argument.zero) (#eq? @argument.zero "0"))
(argument_list [(string_literal) (raw_string_literal) (concatenated_string)] @argument.string)
(argument_list (identifier) @argument.name)
(argument_list (pointer_expression operator: "&" argument: (identifier) @argument.name) @argument.address)
; A call of a method, on a name or on `this` (`other.Get()`, `Get()`): typed by the method's
; declared result where it is the caller's class's (crates/extract/src/refs.rs).
(argument_list (call_expression function: (field_expression argument: (identifier) @argument.receiver field: (field_identifier) @argument.method)) @argument.call)
(argument_list (call_expression function: (identifier) @argument.method) @argument.call)
