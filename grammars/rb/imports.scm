; Ruby imports. Capture conventions: grammars/README.md.
; Whatever a required file defines is global once loaded, so each require imports
; everything (`*`) and passes it on (a re-export).

; `require "shop/store"`: searched on the load path (`lib/`, then the root).
; (A call's `arguments:` is always an `argument_list`: a wildcard parent, grammars/README.md.)
((call !receiver
       method: (identifier) @_m
       arguments: (_ . (string . (string_content) @import.module .))) @import @import.glob @import.reexport
  (#eq? @_m "require"))

; `require_relative "store"`: relative to this file, captured as `./store`.
((call !receiver
       method: (identifier) @_m
       arguments: (_ . (string . (string_content) @import.module .))) @import @import.glob @import.reexport
  (#eq? @_m "require_relative")
  (#set! import.module_prefix "./"))
