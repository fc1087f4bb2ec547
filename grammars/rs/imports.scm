; Rust `use`, `mod x;` and `extern crate`. Capture conventions: grammars/README.md.
; Paths are joined with the manifest's separator (`::`); nested use lists are flattened with
; `@import.prefix` (a `scoped_use_list`'s path applies to everything in its list).
; Inner parents are wildcards where their fields say which node they are, anchored at
; their first field (`(_ . path: (_) name: (identifier))`): which node each one is, and why,
; is in defs.scm's header.

(use_declaration) @import
((use_declaration (visibility_modifier) @_v) @import.reexport
  (#eq? @_v "pub"))

; use a;  use a as b;  use a::b;  use a::b as c;  use a::*;
(use_declaration argument: (identifier) @import.module)
(use_declaration argument: (use_as_clause path: (identifier) @import.module alias: (identifier) @import.module_alias))
(use_declaration argument: (_ . path: (_) @import.module name: (identifier) @import.name))
(use_declaration argument: (use_as_clause
  path: (_ . path: (_) @import.module name: (identifier) @import.name)
  alias: (identifier) @import.alias))
(use_declaration argument: (use_wildcard (_) @import.module) @import.glob)

; use a::{b, c as d, e::f, g::*, self}, at any depth.
(scoped_use_list path: (_) @import.prefix)
(use_list [(identifier) (self)] @import.name)
(use_list (use_as_clause path: (identifier) @import.name alias: (identifier) @import.alias))
(use_list (_ . path: (_) @import.module name: (identifier) @import.name))
(use_list (use_as_clause
  path: (_ . path: (_) @import.module name: (identifier) @import.name)
  alias: (identifier) @import.alias))
(use_list (use_wildcard (_) @import.module) @import.glob)

; mod x;  (a module file: resolved like a path relative to the current module)
(mod_item name: (identifier) @import.module !body) @import

; extern crate a;  extern crate a as b;
(extern_crate_declaration name: (identifier) @import.module !alias) @import
(extern_crate_declaration name: (identifier) @import.module alias: (identifier) @import.module_alias) @import
