; Bash imports: `source path` / `. path`. Capture conventions: grammars/README.md.
; Everything a sourced file defines becomes visible to the sourcing file and, transitively,
; to whoever sources that one: every source is an import of everything (`*`) and a re-export.
; Only literal paths are captured, or a literal tail after the script's own directory
; (`$(dirname "$0")`, `$(dirname "${BASH_SOURCE[0]}")`, `$(cd "$(dirname "$0")" && pwd)`,
; `${BASH_SOURCE%/*}`, `${0%/*}`),
; captured as `/x.sh` and resolved relative to the importer. `$DIR/x.sh` with any other
; variable is not captured: its value is unknown statically.

((command name: (command_name (word) @_c) argument: (word) @import.module)
  @import @import.glob @import.reexport
  (#any-of? @_c "source" "."))
((command name: (command_name (word) @_c) argument: [(string . (string_content) @import.module .) (raw_string) @import.module])
  @import @import.glob @import.reexport
  (#any-of? @_c "source" "."))

; "$(dirname "$0")/x.sh", "$(dirname "${BASH_SOURCE[0]}")/x.sh"
((command name: (command_name (word) @_c)
   argument: (string . (command_substitution) @_dir . (string_content) @import.module .))
  @import @import.glob @import.reexport
  (#any-of? @_c "source" ".")
  (#match? @_dir "^\\$\\(dirname \"?\\$(0|\\{0\\}|\\{BASH_SOURCE(\\[0\\])?\\}|BASH_SOURCE)\"?\\)$"))
; "$(cd "$(dirname "$0")" && pwd)/x.sh" (the same directory, made absolute)
((command name: (command_name (word) @_c)
   argument: (string . (command_substitution) @_dir . (string_content) @import.module .))
  @import @import.glob @import.reexport
  (#any-of? @_c "source" ".")
  (#match? @_dir "^\\$\\(cd \"?\\$\\(dirname \"?\\$(0|\\{0\\}|\\{BASH_SOURCE(\\[0\\])?\\}|BASH_SOURCE)\"?\\)\"? *&& *pwd( -P)?\\)$"))
; "${BASH_SOURCE%/*}/x.sh", "${0%/*}/x.sh"
((command name: (command_name (word) @_c)
   argument: (string . (expansion) @_dir . (string_content) @import.module .))
  @import @import.glob @import.reexport
  (#any-of? @_c "source" ".")
  (#match? @_dir "^\\$\\{(0|BASH_SOURCE(\\[0\\])?)%/\\*\\}$"))
