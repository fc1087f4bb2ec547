; C uses of names. Capture conventions: grammars/README.md.
; The grammar crate's TAGS_QUERY has no calls: these are navmap's own.

; Calls: `f()`, `s.op()`, `p->op()` (a function pointer member: the qualifier is the object).
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression argument: (_) @qualifier field: (field_identifier) @name)) @reference.call
(call_expression function: (parenthesized_expression (pointer_expression argument: (identifier) @name))) @reference.call

; Types anywhere (`struct SessionStore *`, typedef names); definition names are left out by
; the engine.
((type_identifier) @name @reference.type)

; Functions and objects named as values: `{base_get, base_put}`, `&email_validator`.
(initializer_list (identifier) @name @reference.value)
(pointer_expression operator: "&" argument: (identifier) @name) @reference.value

; A macro's body is one unparsed token (`preproc_arg`): its words are mentions from the
; macro (`#define U16_GET(s, i, c) … U16_IS_TRAIL(…)` mentions `U16_IS_TRAIL`). Not edges.
(preproc_function_def value: (preproc_arg) @mention.text)
(preproc_def value: (preproc_arg) @mention.text)
