; Go imports. Capture conventions: grammars/README.md.

; import "a/b"  |  import x "a/b"  |  import . "a/b"  |  import _ "a/b"
(import_spec path: (_) @import.module) @import
(import_spec name: (_) @import.module_alias path: (_) @import.module) @import
