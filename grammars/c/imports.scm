; C includes. Capture conventions: grammars/README.md.
; An include makes every name of the header visible: a glob import. `<…>` keeps its angle
; brackets so the resolver can tell system headers from project ones.
(preproc_include path: (string_literal (string_content) @import.module) @import.glob) @import
(preproc_include path: (system_lib_string) @import.module @import.glob) @import
