//! Reading a goal's text: a lexer and a recursive-descent parser, bounded (the text's
//! length, the number of conditions, the nesting depth) because the text comes from a file
//! or a link; no input panics.

use super::ast::{
    counter_index, from_name, setting_key, setting_value, CauseMatch, Cond, Count, Expr, Op,
    PLAIN_CAUSES, SQLSTATES, SYMPTOMS,
};
use super::error::{err, GoalError, GoalErrorKind, MAX_CONDITIONS, MAX_DEPTH};
use serde::de::DeserializeOwned;

/// The expression of a whole goal's text (the limits on the text itself are checked by
/// [`super::Goal::parse`]).
pub(super) fn expr(text: &str) -> Result<Expr, GoalError> {
    let mut p = Parser {
        text,
        pos: 0,
        conditions: 0,
    };
    let expr = p.any(0)?;
    if let Some(t) = p.peek()? {
        return Err(err(t.at, GoalErrorKind::Trailing));
    }
    Ok(expr)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok<'a> {
    Open,
    Close,
    Comma,
    And,
    Or,
    Op(Op),
    /// A run of ASCII letters, digits and `_` (names, numbers, SQLSTATEs).
    Word(&'a str),
}

#[derive(Clone, Copy, Debug)]
struct Token<'a> {
    tok: Tok<'a>,
    at: usize,
    end: usize,
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The token starting at `at` (white space already skipped), or `None` at the end.
fn lex(text: &str, at: usize) -> Result<Option<Token<'_>>, GoalError> {
    let bytes = text.as_bytes();
    let Some(&b) = bytes.get(at) else {
        return Ok(None);
    };
    let next = bytes.get(at + 1).copied();
    let (tok, len) = match (b, next) {
        (b'(', _) => (Tok::Open, 1),
        (b')', _) => (Tok::Close, 1),
        (b',', _) => (Tok::Comma, 1),
        (b'&', Some(b'&')) => (Tok::And, 2),
        (b'|', Some(b'|')) => (Tok::Or, 2),
        (b'=', Some(b'=')) => (Tok::Op(Op::Eq), 2),
        (b'!', Some(b'=')) => (Tok::Op(Op::Ne), 2),
        (b'>', Some(b'=')) => (Tok::Op(Op::Ge), 2),
        (b'<', Some(b'=')) => (Tok::Op(Op::Le), 2),
        (b'>', _) => (Tok::Op(Op::Gt), 1),
        (b'<', _) => (Tok::Op(Op::Lt), 1),
        _ if is_word_byte(b) => {
            let len = bytes
                .get(at..)
                .unwrap_or_default()
                .iter()
                .take_while(|&&c| is_word_byte(c))
                .count();
            let word = text.get(at..at + len).unwrap_or_default();
            (Tok::Word(word), len)
        }
        _ => return Err(err(at, GoalErrorKind::BadChar)),
    };
    Ok(Some(Token {
        tok,
        at,
        end: at + len,
    }))
}

struct Parser<'a> {
    text: &'a str,
    /// Byte offset of the next unread character.
    pos: usize,
    conditions: usize,
}

impl<'a> Parser<'a> {
    fn skip_space(&mut self) {
        let rest = self.text.as_bytes().get(self.pos..).unwrap_or_default();
        self.pos += rest.iter().take_while(|b| b.is_ascii_whitespace()).count();
    }

    fn peek(&mut self) -> Result<Option<Token<'a>>, GoalError> {
        self.skip_space();
        lex(self.text, self.pos)
    }

    /// The next token, consumed; `what` names what was needed when the text ends.
    fn next(&mut self, what: &'static str) -> Result<Token<'a>, GoalError> {
        match self.peek()? {
            Some(t) => {
                self.pos = t.end;
                Ok(t)
            }
            None => Err(err(self.text.len(), GoalErrorKind::Expected { what })),
        }
    }

    fn expect(&mut self, tok: Tok<'static>, what: &'static str) -> Result<(), GoalError> {
        let t = self.next(what)?;
        if t.tok == tok {
            Ok(())
        } else {
            Err(err(t.at, GoalErrorKind::Expected { what }))
        }
    }

    /// Consumes the next token if it is `tok`.
    fn eat(&mut self, tok: Tok<'static>) -> Result<bool, GoalError> {
        match self.peek()? {
            Some(t) if t.tok == tok => {
                self.pos = t.end;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    fn any(&mut self, depth: usize) -> Result<Expr, GoalError> {
        let mut items = vec![self.all(depth)?];
        while self.eat(Tok::Or)? {
            items.push(self.all(depth)?);
        }
        Ok(joined(items, true))
    }

    fn all(&mut self, depth: usize) -> Result<Expr, GoalError> {
        let mut items = vec![self.atom(depth)?];
        while self.eat(Tok::And)? {
            items.push(self.atom(depth)?);
        }
        Ok(joined(items, false))
    }

    fn atom(&mut self, depth: usize) -> Result<Expr, GoalError> {
        let t = self.next("condition")?;
        match t.tok {
            Tok::Open if depth >= MAX_DEPTH => {
                Err(err(t.at, GoalErrorKind::TooDeep { max: MAX_DEPTH }))
            }
            Tok::Open => {
                let e = self.any(depth + 1)?;
                self.expect(Tok::Close, ")")?;
                Ok(e)
            }
            Tok::Word(name) => {
                self.conditions += 1;
                if self.conditions > MAX_CONDITIONS {
                    let max = MAX_CONDITIONS;
                    return Err(err(t.at, GoalErrorKind::TooManyConditions { max }));
                }
                self.condition(name, t.at).map(Expr::Cond)
            }
            _ => Err(err(t.at, GoalErrorKind::Expected { what: "condition" })),
        }
    }

    /// The rest of the condition that starts with the name `name` at `at`.
    fn condition(&mut self, name: &'a str, at: usize) -> Result<Cond, GoalError> {
        match name {
            "settled" => Ok(Cond::Settled),
            "killed" => {
                self.expect(Tok::Open, "(")?;
                let kind = self.named("kind")?;
                self.expect(Tok::Comma, ",")?;
                let step = self.named("step")?;
                self.expect(Tok::Close, ")")?;
                Ok(Cond::Killed { kind, step })
            }
            "refused" | "refused_by_hand" => {
                self.expect(Tok::Open, "(")?;
                let stmt = self.named("stmt")?;
                self.expect(Tok::Comma, ",")?;
                let sqlstate = self.sqlstate()?;
                self.expect(Tok::Close, ")")?;
                let by_hand = name == "refused_by_hand";
                Ok(Cond::Refused {
                    stmt,
                    sqlstate,
                    by_hand,
                })
            }
            "kill_steps" => {
                self.expect(Tok::Open, "(")?;
                let kind = self.named("kind")?;
                self.expect(Tok::Close, ")")?;
                self.count(Count::KillSteps(kind))
            }
            "tasks_total" => self.count(Count::TasksTotal),
            "relays" => self.count(Count::Relays),
            "workers" => self.count(Count::Workers),
            _ => {
                if let Some(&(_, symptom)) = SYMPTOMS.iter().find(|(n, _)| *n == name) {
                    self.expect(Tok::Open, "(")?;
                    let cause = self.cause()?;
                    self.expect(Tok::Close, ")")?;
                    Ok(Cond::By { symptom, cause })
                } else if let Some(key) = setting_key(name) {
                    self.setting(key)
                } else if let Some(i) = counter_index(name) {
                    self.count(Count::Counter(i))
                } else {
                    let name = name.to_string();
                    Err(err(at, GoalErrorKind::UnknownName { name }))
                }
            }
        }
    }

    /// An enum value by its JSON name, for the argument `key` (`kind`, `step`, `stmt`).
    fn named<T: DeserializeOwned>(&mut self, key: &'static str) -> Result<T, GoalError> {
        let t = self.next(key)?;
        let Tok::Word(word) = t.tok else {
            return Err(err(t.at, GoalErrorKind::Expected { what: key }));
        };
        from_name(word).ok_or_else(|| {
            let value = word.to_string();
            err(t.at, GoalErrorKind::UnknownValue { key, value })
        })
    }

    /// A cause: `kill(kind)`, `kill(kind, step)`, `ran(kind)`, `ran(kind, step)`, or one
    /// of [`PLAIN_CAUSES`].
    fn cause(&mut self) -> Result<CauseMatch, GoalError> {
        let key = "cause";
        let t = self.next(key)?;
        let Tok::Word(word) = t.tok else {
            return Err(err(t.at, GoalErrorKind::Expected { what: key }));
        };
        if let Some(&(_, c)) = PLAIN_CAUSES.iter().find(|(n, _)| *n == word) {
            return Ok(c);
        }
        if !matches!(word, "kill" | "ran") {
            let value = word.to_string();
            return Err(err(t.at, GoalErrorKind::UnknownValue { key, value }));
        }
        self.expect(Tok::Open, "(")?;
        let kind = self.named("kind")?;
        let step = if self.eat(Tok::Comma)? {
            Some(self.named("step")?)
        } else {
            None
        };
        self.expect(Tok::Close, ")")?;
        Ok(if word == "kill" {
            CauseMatch::Kill(kind, step)
        } else {
            CauseMatch::Ran(kind, step)
        })
    }

    fn sqlstate(&mut self) -> Result<&'static str, GoalError> {
        let key = "sqlstate";
        let t = self.next(key)?;
        let Tok::Word(word) = t.tok else {
            return Err(err(t.at, GoalErrorKind::Expected { what: key }));
        };
        SQLSTATES
            .iter()
            .copied()
            .find(|s| *s == word)
            .ok_or_else(|| {
                let value = word.to_string();
                err(t.at, GoalErrorKind::UnknownValue { key, value })
            })
    }

    fn op(&mut self) -> Result<(Op, usize), GoalError> {
        let t = self.next("operator")?;
        match t.tok {
            Tok::Op(op) => Ok((op, t.at)),
            _ => Err(err(t.at, GoalErrorKind::Expected { what: "operator" })),
        }
    }

    /// `op number` after a numeric subject.
    fn count(&mut self, of: Count) -> Result<Cond, GoalError> {
        let (op, _) = self.op()?;
        let t = self.next("value")?;
        let Tok::Word(word) = t.tok else {
            return Err(err(t.at, GoalErrorKind::Expected { what: "value" }));
        };
        if !word.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err(t.at, GoalErrorKind::Expected { what: "number" }));
        }
        let value = word
            .bytes()
            .try_fold(0u64, |n, d| {
                n.checked_mul(10)?.checked_add(u64::from(d - b'0'))
            })
            .ok_or_else(|| err(t.at, GoalErrorKind::NumberTooLarge))?;
        Ok(Cond::Count { of, op, value })
    }

    /// `== value` or `!= value` after a configuration key.
    fn setting(&mut self, key: &'static str) -> Result<Cond, GoalError> {
        let (op, op_at) = self.op()?;
        if !matches!(op, Op::Eq | Op::Ne) {
            let op = op.text();
            return Err(err(op_at, GoalErrorKind::OpNotAllowed { key, op }));
        }
        let t = self.next("value")?;
        let Tok::Word(word) = t.tok else {
            return Err(err(t.at, GoalErrorKind::Expected { what: "value" }));
        };
        let setting = setting_value(key, word).ok_or_else(|| {
            let value = word.to_string();
            err(t.at, GoalErrorKind::UnknownValue { key, value })
        })?;
        Ok(Cond::Is { setting, op })
    }
}

/// One item as itself, several as an `Any` (`any`) or an `All`, with items of the same
/// kind spliced in: `a && (b && c)` is `a && b && c`.
pub(super) fn joined(items: Vec<Expr>, any: bool) -> Expr {
    let mut flat = Vec::with_capacity(items.len());
    for x in items {
        match x {
            Expr::Any(v) if any => flat.extend(v),
            Expr::All(v) if !any => flat.extend(v),
            x => flat.push(x),
        }
    }
    if flat.len() == 1 {
        if let Some(only) = flat.pop() {
            return only;
        }
    }
    if any {
        Expr::Any(flat)
    } else {
        Expr::All(flat)
    }
}
