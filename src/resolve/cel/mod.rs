//! `olm.constraint` `cel` rules as operator-framework/api compiles and evaluates
//! them (`pkg/constraints/cel.go`): cel-go's standard environment without
//! extensions, the variable `properties` (`list(map(string, dyn))`) and the
//! function `semver_compare`. Parsing and evaluation are the `cel` crate's (an
//! ANTLR parser on CEL's grammar, cel-go's evaluation rules); the type check that
//! cel-go runs at compile time (undeclared references, overloads, the result type)
//! is written here, with cel-go's texts.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use cel::common::ast::{EntryExpr, Expr, LiteralValue, SourceInfo, operators};
use cel::parser::Parser;
use cel::{Context, ExecutionError, IdedExpr, Value};

use crate::go::semver::Version;

/// cel-go's default bound on the nesting of a parsed expression.
const MAX_RECURSION_DEPTH: u16 = 250;

/// A compiled rule.
pub(crate) struct Rule {
    expression: IdedExpr,
}

impl fmt::Debug for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("cel::Rule")
    }
}

impl Rule {
    /// Compiles `source`: cel-go's syntax and type errors, or `cel expressions
    /// must have type Bool`.
    pub(crate) fn compile(source: &str) -> Result<Self, String> {
        // The parser and the checker recurse once per level of nesting.
        crate::process::stack::on_deep_stack(|| Self::compile_here(source))
    }

    fn compile_here(source: &str) -> Result<Self, String> {
        let parsed = Parser::new()
            .max_recursion_depth(MAX_RECURSION_DEPTH)
            .parse_with_source_info(source);
        let (expression, source_info) = parsed.map_err(|errors| {
            let mut issues: Vec<Issue> = errors
                .errors
                .iter()
                .map(|error| Issue {
                    line: usize::try_from(error.pos.0).unwrap_or(1).max(1),
                    column: usize::try_from(error.pos.1).unwrap_or(1).max(1) - 1,
                    // The crate reports its depth bound through a debug form.
                    message: if error.msg.contains("Recursion limit of") {
                        format!("expression recursion limit exceeded: {MAX_RECURSION_DEPTH}")
                    } else {
                        error.msg.clone()
                    },
                })
                .collect();
            issues.sort_by_key(|issue| (issue.line, issue.column));
            display(source, &issues)
        })?;
        let mut checker = Checker {
            source,
            source_info: &source_info,
            scopes: Vec::new(),
            issues: Vec::new(),
        };
        let result = checker.check(&expression);
        if !checker.issues.is_empty() {
            let mut issues = checker.issues;
            issues.sort_by_key(|issue| (issue.line, issue.column));
            return Err(display(source, &issues));
        }
        if result != Type::Bool {
            return Err("cel expressions must have type Bool".to_owned());
        }
        Ok(Rule { expression })
    }

    /// Whether the rule holds for an entry with these properties (`type`, decoded
    /// value); an evaluation error is "no". The evaluation first spends from
    /// `budget` a bound on its cost (see [`cost`]); `None` when the budget cannot
    /// pay for it, and nothing is evaluated: nested comprehensions over a long
    /// property list would otherwise run for hours (cel-go sets no bound either).
    pub(crate) fn matches(
        &self,
        properties: &[(String, serde_json::Value)],
        budget: &mut u64,
    ) -> Option<bool> {
        let widest = properties
            .iter()
            .map(|(_, value)| widest_collection(value))
            .max()
            .unwrap_or(0);
        let bound = Bound {
            properties: properties.len() as u64,
            values: widest,
        };
        *budget = budget.checked_sub(cost(&self.expression, bound))?;
        let list: Vec<Value> = properties
            .iter()
            .map(|(kind, value)| {
                let mut map: HashMap<String, Value> = HashMap::new();
                map.insert("type".to_owned(), Value::String(Arc::new(kind.clone())));
                map.insert("value".to_owned(), to_value(value));
                Value::from(map)
            })
            .collect();
        let mut context = Context::default();
        context.add_variable_from_value("properties", Value::List(Arc::new(list)));
        if context
            .add_function("semver_compare", semver_compare)
            .is_err()
        {
            return Some(false);
        }
        Some(matches!(
            Value::resolve(&self.expression, &context),
            Ok(Value::Bool(true))
        ))
    }
}

/// What bounds the collections an evaluation can meet: the entry's property list,
/// and the widest list or map inside a property value.
#[derive(Clone, Copy)]
struct Bound {
    properties: u64,
    values: u64,
}

/// The most elements of any list or map in `value`.
fn widest_collection(value: &serde_json::Value) -> u64 {
    match value {
        serde_json::Value::Array(items) => items
            .iter()
            .map(widest_collection)
            .max()
            .unwrap_or(0)
            .max(items.len() as u64),
        serde_json::Value::Object(map) => map
            .values()
            .map(widest_collection)
            .max()
            .unwrap_or(0)
            .max(map.len() as u64),
        _ => 0,
    }
}

/// An upper bound on the nodes evaluating `expr` visits: each node once, a
/// comprehension's condition and step once per element of its range.
fn cost(expr: &IdedExpr, bound: Bound) -> u64 {
    let sum = |exprs: &mut dyn Iterator<Item = &IdedExpr>| {
        exprs.fold(1u64, |total, e| total.saturating_add(cost(e, bound)))
    };
    match &expr.expr {
        Expr::Comprehension(c) => {
            let per_element = cost(&c.loop_cond, bound).saturating_add(cost(&c.loop_step, bound));
            sum(&mut [&c.iter_range, &c.accu_init, &c.result].into_iter())
                .saturating_add(size(&c.iter_range, bound).saturating_mul(per_element))
        }
        Expr::Call(call) => sum(&mut call.target.as_deref().into_iter().chain(&call.args)),
        Expr::Select(select) => sum(&mut std::iter::once(&*select.operand)),
        Expr::List(list) => sum(&mut list.elements.iter()),
        Expr::Map(map) => sum(&mut map.entries.iter().flat_map(|entry| match &entry.expr {
            EntryExpr::MapEntry(entry) => vec![&entry.key, &entry.value],
            EntryExpr::StructField(field) => vec![&field.value],
        })),
        Expr::Struct(structure) => {
            sum(&mut structure
                .entries
                .iter()
                .flat_map(|entry| match &entry.expr {
                    EntryExpr::MapEntry(entry) => vec![&entry.key, &entry.value],
                    EntryExpr::StructField(field) => vec![&field.value],
                }))
        }
        Expr::Literal(_) | Expr::Ident(_) | Expr::Unspecified => 1,
    }
}

/// An upper bound on the elements of the collection `expr` evaluates to: a list
/// literal its elements, a concatenation the sum of its parts, a comprehension
/// (`map`, `filter`) its range, and anything else (`properties`, a property value,
/// a loop variable) the property list or the widest collection in the values.
fn size(expr: &IdedExpr, bound: Bound) -> u64 {
    match &expr.expr {
        Expr::List(list) => list.elements.len() as u64,
        Expr::Map(map) => map.entries.len() as u64,
        Expr::Comprehension(c) => size(&c.iter_range, bound),
        Expr::Call(call) if call.func_name == operators::ADD => call
            .args
            .iter()
            .fold(0u64, |total, arg| total.saturating_add(size(arg, bound))),
        _ => bound.values.max(bound.properties),
    }
}

/// `semver_compare(a, b)`: both formatted as Go's `fmt.Sprint` would, parsed with
/// blang's `ParseTolerant`, compared.
#[allow(
    clippy::needless_pass_by_value,
    reason = "the cel crate passes function arguments by value"
)]
fn semver_compare(a: Value, b: Value) -> Result<i64, ExecutionError> {
    let parse = |value: &Value| {
        let text = sprint(value);
        Version::parse_tolerant(&text)
            .map_err(|error| ExecutionError::function_error("semver_compare", error))
    };
    let (a, b) = (parse(&a)?, parse(&b)?);
    Ok(match a.cmp(&b) {
        std::cmp::Ordering::Less => -1,
        std::cmp::Ordering::Equal => 0,
        std::cmp::Ordering::Greater => 1,
    })
}

fn sprint(value: &Value) -> String {
    match value {
        Value::String(text) => text.to_string(),
        Value::Int(n) => n.to_string(),
        Value::UInt(n) => n.to_string(),
        Value::Float(f) => crate::go::fmt::float(*f),
        Value::Bool(b) => b.to_string(),
        Value::Null => "<nil>".to_owned(),
        other => format!("{other:?}"),
    }
}

/// JSON as cel-go sees a decoded `interface{}`: numbers are doubles.
fn to_value(value: &serde_json::Value) -> Value {
    match value {
        serde_json::Value::Null => Value::Null,
        serde_json::Value::Bool(b) => Value::Bool(*b),
        serde_json::Value::Number(n) => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
        serde_json::Value::String(s) => Value::String(Arc::new(s.clone())),
        serde_json::Value::Array(items) => {
            Value::List(Arc::new(items.iter().map(to_value).collect()))
        }
        serde_json::Value::Object(map) => {
            let map: HashMap<String, Value> =
                map.iter().map(|(k, v)| (k.clone(), to_value(v))).collect();
            Value::from(map)
        }
    }
}

/// One compile error at a line (from 1) and column (characters, from 0).
struct Issue {
    line: usize,
    column: usize,
    message: String,
}

/// cel-go's `Errors.ToDisplayString`: each issue with its source line and a
/// pointer under the column.
fn display(source: &str, issues: &[Issue]) -> String {
    let mut out = Vec::new();
    for issue in issues {
        let mut text = format!(
            "ERROR: <input>:{}:{}: {}",
            issue.line,
            issue.column + 1,
            issue.message
        );
        if let Some(line) = source.split('\n').nth(issue.line - 1) {
            let line = line.replace('\t', " ");
            text.push_str("\n | ");
            text.push_str(&line);
            text.push_str("\n | ");
            let chars: Vec<char> = line.chars().collect();
            for c in chars.iter().take(issue.column) {
                text.push(if c.len_utf8() > 1 { '\u{FF0E}' } else { '.' });
            }
            let wide = chars.get(issue.column).is_some_and(|c| c.len_utf8() > 1);
            text.push(if wide { '\u{FF3E}' } else { '^' });
        }
        out.push(text);
    }
    out.join("\n")
}

/// The types cel-go's checker infers, as far as the messages need them.
#[derive(Debug, Clone, PartialEq)]
enum Type {
    Bool,
    Int,
    Uint,
    Double,
    String,
    Bytes,
    Null,
    Dyn,
    Meta,
    List(Box<Type>),
    Map(Box<Type>, Box<Type>),
    /// An error already reported below: no further message.
    Error,
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Bool => f.write_str("bool"),
            Type::Int => f.write_str("int"),
            Type::Uint => f.write_str("uint"),
            Type::Double => f.write_str("double"),
            Type::String => f.write_str("string"),
            Type::Bytes => f.write_str("bytes"),
            Type::Null => f.write_str("null_type"),
            Type::Dyn | Type::Error => f.write_str("dyn"),
            Type::Meta => f.write_str("type"),
            Type::List(item) => write!(f, "list({item})"),
            Type::Map(key, value) => write!(f, "map({key}, {value})"),
        }
    }
}

impl Type {
    fn loose(&self) -> bool {
        matches!(self, Type::Dyn | Type::Error)
    }

    /// Whether a value of `self` may be passed where `other` is expected.
    fn fits(&self, other: &Type) -> bool {
        match (self, other) {
            _ if self.loose() || other.loose() => true,
            (Type::List(a), Type::List(b)) => a.fits(b),
            (Type::Map(ka, va), Type::Map(kb, vb)) => ka.fits(kb) && va.fits(vb),
            _ => self == other,
        }
    }

    fn numeric(&self) -> bool {
        matches!(self, Type::Int | Type::Uint | Type::Double)
    }

    /// The type of a list's elements or of a conditional's branches.
    fn join(self, other: &Type) -> Type {
        if self == *other { self } else { Type::Dyn }
    }
}

struct Checker<'a> {
    source: &'a str,
    source_info: &'a SourceInfo,
    scopes: Vec<(String, Type)>,
    issues: Vec<Issue>,
}

impl Checker<'_> {
    fn report(&mut self, id: u64, message: String) {
        let offset = self
            .source_info
            .offset_for(id)
            .map_or(0, |(start, _)| start as usize);
        let before = self.source.get(..offset).unwrap_or(self.source);
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().unwrap_or("").chars().count();
        self.issues.push(Issue {
            line,
            column,
            message,
        });
    }

    fn undeclared(&mut self, id: u64, name: &str) -> Type {
        self.report(
            id,
            format!("undeclared reference to '{name}' (in container '')"),
        );
        Type::Error
    }

    fn no_overload(
        &mut self,
        id: u64,
        function: &str,
        target: Option<&Type>,
        args: &[Type],
    ) -> Type {
        if target.is_some_and(Type::loose) || args.contains(&Type::Error) {
            return Type::Error;
        }
        let list = args
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        let signature = match target {
            Some(target) => format!("{target}.({list})"),
            None => format!("({list})"),
        };
        self.report(
            id,
            format!("found no matching overload for '{function}' applied to '{signature}'"),
        );
        Type::Error
    }

    fn check(&mut self, expr: &IdedExpr) -> Type {
        match &expr.expr {
            Expr::Literal(literal) => match literal {
                LiteralValue::Boolean(_) => Type::Bool,
                LiteralValue::Bytes(_) => Type::Bytes,
                LiteralValue::Double(_) => Type::Double,
                LiteralValue::Int(_) => Type::Int,
                LiteralValue::Null => Type::Null,
                LiteralValue::String(_) => Type::String,
                LiteralValue::UInt(_) => Type::Uint,
            },
            Expr::Ident(name) => self.ident(expr.id, name),
            Expr::Select(select) => {
                let operand = self.check(&select.operand);
                if select.test {
                    return Type::Bool;
                }
                match operand {
                    Type::Map(_, value) => *value,
                    Type::Dyn | Type::Error => operand,
                    other => {
                        self.report(
                            expr.id,
                            format!("type '{other}' does not support field selection"),
                        );
                        Type::Error
                    }
                }
            }
            Expr::List(list) => {
                let mut item: Option<Type> = None;
                for element in &list.elements {
                    let ty = self.check(element);
                    item = Some(match item {
                        None => ty,
                        Some(previous) => previous.join(&ty),
                    });
                }
                Type::List(Box::new(item.unwrap_or(Type::Dyn)))
            }
            Expr::Map(map) => {
                let (mut key, mut value): (Option<Type>, Option<Type>) = (None, None);
                for entry in &map.entries {
                    if let EntryExpr::MapEntry(entry) = &entry.expr {
                        let k = self.check(&entry.key);
                        let v = self.check(&entry.value);
                        key = Some(key.map_or_else(|| k.clone(), |p| p.join(&k)));
                        value = Some(value.map_or_else(|| v.clone(), |p| p.join(&v)));
                    }
                }
                Type::Map(
                    Box::new(key.unwrap_or(Type::Dyn)),
                    Box::new(value.unwrap_or(Type::Dyn)),
                )
            }
            Expr::Struct(structure) => self.undeclared(expr.id, &structure.type_name),
            Expr::Comprehension(comprehension) => {
                let range = self.check(&comprehension.iter_range);
                let item = match &range {
                    Type::List(item) => (**item).clone(),
                    Type::Map(key, _) => (**key).clone(),
                    _ => Type::Dyn,
                };
                let init = self.check(&comprehension.accu_init);
                self.scopes.push((comprehension.iter_var.clone(), item));
                self.scopes
                    .push((comprehension.accu_var.clone(), init.clone()));
                self.check(&comprehension.loop_cond);
                let step = self.check(&comprehension.loop_step);
                self.scopes.pop();
                // `map` and `filter` start from `[]`: the result has the step's type.
                let accu = if init == Type::List(Box::new(Type::Dyn)) {
                    step
                } else {
                    init
                };
                self.scopes.push((comprehension.accu_var.clone(), accu));
                let result = self.check(&comprehension.result);
                self.scopes.pop();
                self.scopes.pop();
                result
            }
            Expr::Call(call) => {
                let target = call.target.as_ref().map(|t| self.check(t));
                let args: Vec<Type> = call.args.iter().map(|a| self.check(a)).collect();
                self.call(expr.id, &call.func_name, target.as_ref(), &args)
            }
            Expr::Unspecified => Type::Error,
        }
    }

    fn ident(&mut self, id: u64, name: &str) -> Type {
        if let Some((_, ty)) = self.scopes.iter().rev().find(|(n, _)| n == name) {
            return ty.clone();
        }
        match name {
            "properties" => Type::List(Box::new(Type::Map(
                Box::new(Type::String),
                Box::new(Type::Dyn),
            ))),
            "int" | "uint" | "double" | "string" | "bytes" | "bool" | "list" | "map"
            | "null_type" | "type" | "dyn" => Type::Meta,
            _ => self.undeclared(id, name),
        }
    }

    #[allow(clippy::too_many_lines)]
    fn call(&mut self, id: u64, function: &str, target: Option<&Type>, args: &[Type]) -> Type {
        use Type as T;
        let any_loose = args.iter().any(T::loose);
        match (function, target, args) {
            (operators::LOGICAL_AND | operators::LOGICAL_OR, None, [a, b])
                if a.fits(&T::Bool) && b.fits(&T::Bool) =>
            {
                T::Bool
            }
            (operators::LOGICAL_NOT | operators::NOT_STRICTLY_FALSE, None, [a])
                if a.fits(&T::Bool) =>
            {
                T::Bool
            }
            (operators::CONDITIONAL, None, [c, a, b]) if c.fits(&T::Bool) => a.clone().join(b),
            (operators::EQUALS | operators::NOT_EQUALS, None, [a, b]) if a.fits(b) => T::Bool,
            (
                operators::LESS
                | operators::LESS_EQUALS
                | operators::GREATER
                | operators::GREATER_EQUALS,
                None,
                [a, b],
            ) if any_loose
                || (a.numeric() && b.numeric())
                || (a == b && matches!(a, T::String | T::Bytes | T::Bool)) =>
            {
                T::Bool
            }
            (operators::ADD, None, [a, b]) if any_loose => {
                if a.loose() {
                    b.clone()
                } else {
                    a.clone()
                }
            }
            (operators::ADD, None, [T::List(a), T::List(b)]) => {
                T::List(Box::new((**a).clone().join(b)))
            }
            (operators::ADD, None, [a, b])
                if a == b && matches!(a, T::Int | T::Uint | T::Double | T::String | T::Bytes) =>
            {
                a.clone()
            }
            (operators::SUBSTRACT | operators::MULTIPLY | operators::DIVIDE, None, [a, b])
                if any_loose || (a == b && a.numeric()) =>
            {
                if a.loose() {
                    b.clone()
                } else {
                    a.clone()
                }
            }
            (operators::MODULO, None, [a, b])
                if any_loose || (a == b && matches!(a, T::Int | T::Uint)) =>
            {
                if a.loose() {
                    b.clone()
                } else {
                    a.clone()
                }
            }
            (operators::NEGATE, None, [a]) if a.loose() || matches!(a, T::Int | T::Double) => {
                a.clone()
            }
            (operators::INDEX, None, [collection, index]) => match collection {
                T::List(item) if index.fits(&T::Int) || *index == T::Uint => (**item).clone(),
                T::Map(key, value) if index.fits(key) => (**value).clone(),
                T::Dyn | T::Error => T::Dyn,
                _ => self.no_overload(id, function, None, args),
            },
            (operators::IN, None, [item, collection]) => match collection {
                T::List(of) if item.fits(of) => T::Bool,
                T::Map(key, _) if item.fits(key) => T::Bool,
                T::Dyn | T::Error => T::Bool,
                _ => self.no_overload(id, function, None, args),
            },
            ("size", None, [a]) | ("size", Some(a), []) if size_of(a) => T::Int,
            ("contains" | "startsWith" | "endsWith" | "matches", Some(s), [a])
                if s.fits(&T::String) && a.fits(&T::String) =>
            {
                T::Bool
            }
            ("matches", None, [s, a]) if s.fits(&T::String) && a.fits(&T::String) => T::Bool,
            ("semver_compare", None, [_, _]) => T::Int,
            ("int", None, [a]) if a.loose() || a.numeric() || *a == T::String => T::Int,
            ("uint", None, [a]) if a.loose() || a.numeric() || *a == T::String => T::Uint,
            ("double", None, [a]) if a.loose() || a.numeric() || *a == T::String => T::Double,
            ("string", None, [a])
                if a.loose() || a.numeric() || matches!(a, T::String | T::Bytes | T::Bool) =>
            {
                T::String
            }
            ("bytes", None, [a]) if a.fits(&T::String) || *a == T::Bytes => T::Bytes,
            ("bool", None, [a]) if a.fits(&T::String) || *a == T::Bool => T::Bool,
            ("dyn", None, [_]) => T::Dyn,
            ("type", None, [_]) => T::Meta,
            ("timestamp" | "duration", None, [a]) if a.fits(&T::String) || *a == T::Int => T::Dyn,
            _ if !declared(function) => {
                self.report(
                    id,
                    format!("undeclared reference to '{function}' (in container '')"),
                );
                T::Error
            }
            _ => self.no_overload(id, function, target, args),
        }
    }
}

fn size_of(ty: &Type) -> bool {
    matches!(
        ty,
        Type::String | Type::Bytes | Type::List(_) | Type::Map(..) | Type::Dyn | Type::Error
    )
}

/// Functions cel-go's standard environment declares (with any overloads).
fn declared(function: &str) -> bool {
    function.starts_with('_')
        || function.starts_with('@')
        || function == operators::LOGICAL_NOT
        || function == operators::NEGATE
        || matches!(
            function,
            "size"
                | "contains"
                | "startsWith"
                | "endsWith"
                | "matches"
                | "semver_compare"
                | "int"
                | "uint"
                | "double"
                | "string"
                | "bytes"
                | "bool"
                | "dyn"
                | "type"
                | "timestamp"
                | "duration"
                | "getFullYear"
                | "getMonth"
                | "getDayOfYear"
                | "getDayOfMonth"
                | "getDate"
                | "getDayOfWeek"
                | "getHours"
                | "getMinutes"
                | "getSeconds"
                | "getMilliseconds"
        )
}

#[cfg(test)]
mod tests;
