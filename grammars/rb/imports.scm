; Ruby imports. Capture conventions: grammars/README.md.
; Whatever a required file defines is global once loaded, so each require imports
; everything (`*`) and passes it on (a re-export).

; `require "shop/store"`: searched on the load path (`lib/`, then the root).
((call !receiver
       method: (identifier) @_m
       arguments: (argument_list . (string . (string_content) @import.module .))) @import @import.glob @import.reexport
  (#eq? @_m "require"))

; `require_relative "store"`: relative to this file, captured as `./store`.
((call !receiver
       method: (identifier) @_m
       arguments: (argument_list . (string . (string_content) @import.module .))) @import @import.glob @import.reexport
  (#eq? @_m "require_relative")
  (#set! import.module_prefix "./"))
