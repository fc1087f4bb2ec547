//! Overloads weighed by their arguments' kinds (issue 17): a function's declared parameter
//! shapes (`DefFact::params`) and a call's argument kinds (`RefFact::arg_kinds`), as the
//! model keeps them — one interned text each, only where extraction found some (the node
//! slot stays 48 bytes: `Model::params` is a side table like `Model::arity`) — and the two
//! rules `Resolver::by_arity` applies to the overloads the number of arguments leaves:
//!
//! - [`cannot_bind`]: an argument of a known kind that can certainly not initialise a
//!   parameter rules its overload out (`nullptr` and an `int`, a pointer and a
//!   `std::nullptr_t`, a temporary and a reference that may change it);
//! - [`best_match`]: an argument that initialises a parameter by an identity conversion no
//!   other parameter type can beat (`nullptr` → `std::nullptr_t`, `&raw` → `T*` where `raw`
//!   is a `T&`, `loc` → `const SourceLocation&` where `loc` is one). An overload that is
//!   such a match at every position where the overloads' parameters differ, and is no
//!   template, is the one a compiler picks: any other is worse at some position or, tied
//!   everywhere, would make the call ambiguous (a program that compiles has none) or lose
//!   as a template.
//!
//! What is not known is never ruled out: a class may convert from anything (a converting
//! constructor, `SentinelPointer`'s conversion operator), a template parameter may be
//! anything (`?U`: the function's own, deduced; `$T`: the class's, the same only for a
//! caller inside that class), an alias may hide a pointer. Assumed, not checked: `&x` is
//! the built-in address-of (no overloaded `operator&`), an alias does not hide a `const`
//! in a reference's type, and the overloads the map sees are all there are (as for the
//! number of arguments: overloads declared in a class and defined in another file are no
//! `~N` siblings).

use navmap_extract::facts::{ArgKind, Param, Params, TypeShape};

/// Separates the parts of an encoded text (never in a type's text).
const SEP: char = '\u{1f}';

fn shape_char(s: TypeShape) -> char {
    match s {
        TypeShape::Value => 'v',
        TypeShape::Pointer => 'p',
        TypeShape::Reference => 'r',
        TypeShape::ConstReference => 'c',
        TypeShape::RvalueReference => 'R',
        TypeShape::Null => 'n',
        TypeShape::Arithmetic => 'a',
        TypeShape::Other => 'o',
    }
}

fn char_shape(c: char) -> Option<TypeShape> {
    Some(match c {
        'v' => TypeShape::Value,
        'p' => TypeShape::Pointer,
        'r' => TypeShape::Reference,
        'c' => TypeShape::ConstReference,
        'R' => TypeShape::RvalueReference,
        'n' => TypeShape::Null,
        'a' => TypeShape::Arithmetic,
        'o' => TypeShape::Other,
        _ => return None,
    })
}

/// `t` or `-` (a template or not), the qualifiers, then per parameter a separator, its
/// shape's letter and its base type.
pub(crate) fn encode_params(p: &Params) -> String {
    let mut s = String::new();
    s.push(if p.template { 't' } else { '-' });
    s.push_str(&p.qualifiers);
    for q in &p.list {
        s.push(SEP);
        s.push(shape_char(q.shape));
        s.push_str(&q.base);
    }
    s
}

pub(crate) fn decode_params(s: &str) -> Option<Params> {
    let mut parts = s.split(SEP);
    let head = parts.next()?;
    let template = head.starts_with('t');
    let qualifiers = head.get(1..)?.to_string();
    let list = parts
        .map(|p| {
            let mut chars = p.chars();
            let shape = char_shape(chars.next()?)?;
            Some(Param {
                shape,
                base: chars.as_str().to_string(),
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Params {
        list,
        template,
        qualifiers,
    })
}

/// Per argument, separated: `?` unknown, `n` null, `0` zero, `a` arithmetic, `s` string,
/// `*` pointer, or `t` + shape letter + `c`/`-` (constant) + `l`/`r` (lvalue) + base.
pub(crate) fn encode_args(kinds: &[ArgKind]) -> String {
    let mut s = String::new();
    for (i, k) in kinds.iter().enumerate() {
        if i > 0 {
            s.push(SEP);
        }
        match k {
            ArgKind::Unknown => s.push('?'),
            ArgKind::Null => s.push('n'),
            ArgKind::Zero => s.push('0'),
            ArgKind::Arithmetic => s.push('a'),
            ArgKind::String => s.push('s'),
            ArgKind::Pointer => s.push('*'),
            ArgKind::Typed {
                shape,
                base,
                konst,
                lvalue,
            } => {
                s.push('t');
                s.push(shape_char(*shape));
                s.push(if *konst { 'c' } else { '-' });
                s.push(if *lvalue { 'l' } else { 'r' });
                s.push_str(base);
            }
        }
    }
    s
}

pub(crate) fn decode_args(s: &str) -> Vec<ArgKind> {
    s.split(SEP)
        .map(|a| {
            let mut chars = a.chars();
            match chars.next() {
                Some('n') => ArgKind::Null,
                Some('0') => ArgKind::Zero,
                Some('a') => ArgKind::Arithmetic,
                Some('s') => ArgKind::String,
                Some('*') => ArgKind::Pointer,
                Some('t') => {
                    let (Some(shape), Some(k), Some(l)) = (
                        chars.next().and_then(char_shape),
                        chars.next(),
                        chars.next(),
                    ) else {
                        return ArgKind::Unknown;
                    };
                    ArgKind::Typed {
                        shape,
                        base: chars.as_str().to_string(),
                        konst: k == 'c',
                        lvalue: l == 'l',
                    }
                }
                _ => ArgKind::Unknown,
            }
        })
        .collect()
}

/// A type's text names a template parameter (`$T`, `?U`).
fn names_template_parameter(base: &str) -> bool {
    base.contains(['$', '?'])
}

/// A reference that may change what it refers to, of a type that is not a template
/// parameter (which could be a constant type): no temporary binds to it.
fn mutable_reference(p: &Param) -> bool {
    p.shape == TypeShape::Reference && !names_template_parameter(&p.base)
}

/// Whether an argument of kind `a` can certainly not initialise a parameter `p`. Only
/// what no conversion can do: a class type (`TypeShape::Value`), a constant or temporary
/// reference, an unknown shape accept anything here.
pub(crate) fn cannot_bind(a: &ArgKind, p: &Param) -> bool {
    use TypeShape as S;
    match a {
        ArgKind::Unknown => false,
        // `nullptr` is no number (not even a `bool` in a call's copy-initialisation).
        ArgKind::Null => p.shape == S::Arithmetic || mutable_reference(p),
        // `0` is a null pointer constant as well as a number.
        ArgKind::Zero => mutable_reference(p),
        // A number other than the literal `0`, a character, `true`: no pointer.
        ArgKind::Arithmetic => matches!(p.shape, S::Pointer | S::Null) || mutable_reference(p),
        ArgKind::String => p.shape == S::Null,
        // A pointer converts to `bool` (arithmetic) but never to `std::nullptr_t`.
        ArgKind::Pointer => p.shape == S::Null || mutable_reference(p),
        ArgKind::Typed { shape, lvalue, .. } => {
            (!lvalue && mutable_reference(p))
                || match shape {
                    S::Pointer => p.shape == S::Null,
                    S::Arithmetic => matches!(p.shape, S::Pointer | S::Null),
                    S::Null => p.shape == S::Arithmetic,
                    _ => false,
                }
        }
    }
}

/// Whether `a` initialises `p` by an identity conversion no other parameter type can
/// beat: a value parameter of the argument's own type (`nullptr` → `std::nullptr_t`,
/// `&raw` → `T*`), or a reference to it with exactly the argument's constness (an lvalue
/// `const SourceLocation` → `const SourceLocation&`). Two texts naming a type are the
/// same type only for a caller inside the overloads' class (`same_class`: the names are
/// looked up from the same scope, and a class template's `$T` is the same parameter;
/// elsewhere `Location` may be another namespace's), and never where the function
/// deduces it (`?U`); the null pointer's type and a number's are the same everywhere.
pub(crate) fn best_match(a: &ArgKind, p: &Param, same_class: bool) -> bool {
    use TypeShape as S;
    let comparable = |base: &str| !base.contains('?') && same_class;
    match a {
        ArgKind::Null => p.shape == S::Null,
        ArgKind::Typed {
            shape: S::Null,
            lvalue: true,
            ..
        } => p.shape == S::Null,
        ArgKind::Typed {
            shape: S::Arithmetic,
            base,
            ..
        } if p.shape == S::Arithmetic => *base == p.base,
        ArgKind::Typed {
            shape,
            base,
            konst,
            lvalue,
        } if comparable(base) && comparable(&p.base) => match (shape, p.shape) {
            (S::Pointer, S::Pointer) | (S::Value, S::Value) => *base == p.base,
            (S::Value | S::Arithmetic | S::Null, S::Reference) => {
                *lvalue && !*konst && *base == p.base
            }
            (S::Value | S::Arithmetic | S::Null, S::ConstReference) => {
                *lvalue && *konst && *base == p.base
            }
            _ => false,
        },
        _ => false,
    }
}

/// Two overloads' parameters at one position are the same type: the argument there
/// cannot tell them apart (a parameter the function deduces is no fixed type).
pub(crate) fn same_type(p: &Param, q: &Param) -> bool {
    p == q && !p.base.contains('?')
}

/// Among overloads with known parameters (each `(id, params)`), the one a call with
/// these arguments certainly calls (see the module's rules), if any. `same_class`: the
/// caller is inside the overloads' class.
pub(crate) fn best_overload<I: Copy + PartialEq>(
    overloads: &[(I, Params)],
    kinds: &[ArgKind],
    same_class: bool,
) -> Option<I> {
    let n = kinds.len();
    overloads.iter().find_map(|(f, pf)| {
        if pf.template || pf.list.len() < n {
            return None;
        }
        let beats = |pg: &Params| {
            pg.qualifiers == pf.qualifiers
                && (0..n).all(|i| {
                    pg.list.get(i).is_some_and(|q| same_type(&pf.list[i], q))
                        || best_match(&kinds[i], &pf.list[i], same_class)
                })
        };
        overloads
            .iter()
            .filter(|(g, _)| g != f)
            .all(|(_, pg)| beats(pg))
            .then_some(*f)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(shape: TypeShape, base: &str) -> Param {
        Param {
            shape,
            base: base.to_string(),
        }
    }

    fn params(list: Vec<Param>, template: bool) -> Params {
        Params {
            list,
            template,
            qualifiers: String::new(),
        }
    }

    #[test]
    fn encodings_read_back_as_written() {
        let ps = Params {
            list: vec![
                p(TypeShape::Pointer, "const $T"),
                p(TypeShape::ConstReference, "SourceLocation"),
                p(TypeShape::Other, "int(*)(char)"),
            ],
            template: true,
            qualifiers: "const &&".to_string(),
        };
        assert_eq!(decode_params(&encode_params(&ps)), Some(ps));
        let empty = params(vec![], false);
        assert_eq!(decode_params(&encode_params(&empty)), Some(empty));
        let kinds = vec![
            ArgKind::Unknown,
            ArgKind::Null,
            ArgKind::Zero,
            ArgKind::Arithmetic,
            ArgKind::String,
            ArgKind::Pointer,
            ArgKind::Typed {
                shape: TypeShape::Value,
                base: "cppgc::SourceLocation".to_string(),
                konst: true,
                lvalue: true,
            },
        ];
        assert_eq!(decode_args(&encode_args(&kinds)), kinds);
    }

    /// cppgc's constructors: `nullptr` calls the `std::nullptr_t` one, `&raw` (a `T&`)
    /// the `T*` one, an unknown argument none for sure, a template never wins.
    #[test]
    fn the_exact_match_is_chosen_and_nothing_unknown_is_ruled_out() {
        let loc = p(TypeShape::ConstReference, "SourceLocation");
        let set = vec![
            (
                1,
                params(
                    vec![p(TypeShape::Null, "std::nullptr_t"), loc.clone()],
                    false,
                ),
            ),
            (
                2,
                params(
                    vec![p(TypeShape::Value, "SentinelPointer"), loc.clone()],
                    false,
                ),
            ),
            (
                3,
                params(vec![p(TypeShape::Pointer, "$T"), loc.clone()], false),
            ),
            (
                4,
                params(vec![p(TypeShape::Reference, "$T"), loc.clone()], false),
            ),
            (
                5,
                params(
                    vec![
                        p(TypeShape::ConstReference, "BasicPersistent<?U>"),
                        loc.clone(),
                    ],
                    true,
                ),
            ),
        ];
        let loc_arg = ArgKind::Typed {
            shape: TypeShape::Value,
            base: "SourceLocation".to_string(),
            konst: true,
            lvalue: true,
        };
        assert_eq!(
            best_overload(&set, &[ArgKind::Null, loc_arg.clone()], true),
            Some(1)
        );
        let raw = ArgKind::Typed {
            shape: TypeShape::Pointer,
            base: "$T".to_string(),
            konst: false,
            lvalue: false,
        };
        assert_eq!(
            best_overload(&set, &[raw.clone(), loc_arg.clone()], true),
            Some(3)
        );
        // Outside the class, the caller's `T` is another type.
        assert_eq!(
            best_overload(&set, &[raw.clone(), loc_arg.clone()], false),
            None
        );
        assert_eq!(
            best_overload(&set, &[ArgKind::Unknown, loc_arg.clone()], true),
            None
        );
        // An unknown argument where the overloads differ decides nothing; the null
        // pointer's type is the same everywhere, a class's name only inside the class.
        assert_eq!(
            best_overload(&set, &[ArgKind::Null, ArgKind::Unknown], true),
            Some(1)
        );
        assert_eq!(
            best_overload(&set, &[ArgKind::Null, ArgKind::Unknown], false),
            Some(1)
        );
        let sentinel = ArgKind::Typed {
            shape: TypeShape::Value,
            base: "SentinelPointer".to_string(),
            konst: false,
            lvalue: true,
        };
        assert_eq!(
            best_overload(&set, &[sentinel.clone(), loc_arg.clone()], true),
            Some(2)
        );
        assert_eq!(
            best_overload(&set, &[sentinel, loc_arg.clone()], false),
            None
        );
        assert_eq!(
            best_overload(&set[..2], &[ArgKind::Pointer, loc_arg], true),
            None
        );
        // What cannot bind.
        assert!(cannot_bind(&raw, &set[0].1.list[0]));
        assert!(!cannot_bind(&raw, &set[1].1.list[0]), "a class may convert");
        assert!(
            !cannot_bind(&raw, &set[3].1.list[0]),
            "`T` may be a constant type"
        );
        assert!(cannot_bind(&ArgKind::Null, &p(TypeShape::Reference, "Foo")));
        assert!(cannot_bind(
            &ArgKind::Null,
            &p(TypeShape::Arithmetic, "int")
        ));
        assert!(!cannot_bind(&ArgKind::Null, &p(TypeShape::Pointer, "Foo")));
        assert!(!cannot_bind(&ArgKind::Zero, &p(TypeShape::Pointer, "Foo")));
        assert!(cannot_bind(
            &ArgKind::Arithmetic,
            &p(TypeShape::Pointer, "Foo")
        ));
        assert!(!cannot_bind(
            &ArgKind::Pointer,
            &p(TypeShape::Arithmetic, "bool")
        ));
        assert!(!cannot_bind(
            &ArgKind::String,
            &p(TypeShape::Value, "std::string")
        ));
    }

    /// Overloads that differ in a method's qualifiers (`Get()` and `Get() const`) are not
    /// told apart by their parameters.
    #[test]
    fn qualifiers_keep_overloads_apart() {
        let mut a = params(vec![p(TypeShape::Null, "std::nullptr_t")], false);
        let mut b = params(vec![p(TypeShape::Pointer, "Foo")], false);
        a.qualifiers = "const".to_string();
        b.qualifiers = String::new();
        assert_eq!(
            best_overload(&[(1, a), (2, b)], &[ArgKind::Null], false),
            None
        );
    }
}
