; Bash names bound to types: none. Bash has no types and no receivers; calls are by
; function name only. (This file stays so every language has the same four queries.)
