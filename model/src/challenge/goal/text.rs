//! A goal's canonical text: one spelling per goal (spaces around operators, no redundant
//! parentheses), so two goals are equal when their texts are and the text parses back.

use super::ast::{
    name_of, setting_text, CauseMatch, Cond, Count, Expr, COUNTERS, PLAIN_CAUSES, SYMPTOMS,
};
use super::Goal;
use std::fmt;

impl fmt::Display for Goal {
    /// The canonical text: one space around each operator, `, ` between arguments,
    /// parentheses only where `||` sits inside `&&`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_expr(f, &self.expr)
    }
}

fn write_expr(f: &mut fmt::Formatter<'_>, e: &Expr) -> fmt::Result {
    match e {
        Expr::Any(v) => write_joined(f, v, " || "),
        Expr::All(v) => write_joined(f, v, " && "),
        Expr::Cond(k) => write_cond(f, k),
    }
}

fn write_joined(f: &mut fmt::Formatter<'_>, v: &[Expr], sep: &str) -> fmt::Result {
    for (i, x) in v.iter().enumerate() {
        if i > 0 {
            f.write_str(sep)?;
        }
        if matches!(x, Expr::Any(_)) {
            f.write_str("(")?;
            write_expr(f, x)?;
            f.write_str(")")?;
        } else {
            write_expr(f, x)?;
        }
    }
    Ok(())
}

fn write_cond(f: &mut fmt::Formatter<'_>, k: &Cond) -> fmt::Result {
    match k {
        Cond::Settled => f.write_str("settled"),
        Cond::Count { of, op, value } => {
            match of {
                Count::Counter(i) => f.write_str(COUNTERS.get(*i).map_or("?", |(n, _)| *n)),
                Count::TasksTotal => f.write_str("tasks_total"),
                Count::KillSteps(kind) => write!(f, "kill_steps({})", name_of(kind)),
                Count::Relays => f.write_str("relays"),
                Count::Workers => f.write_str("workers"),
            }?;
            write!(f, " {} {value}", op.text())
        }
        Cond::Is { setting, op } => {
            let (key, value) = setting_text(*setting);
            write!(f, "{key} {} {value}", op.text())
        }
        Cond::Killed { kind, step } => {
            write!(f, "killed({}, {})", name_of(kind), name_of(step))
        }
        Cond::Refused {
            stmt,
            sqlstate,
            by_hand,
        } => {
            let name = if *by_hand {
                "refused_by_hand"
            } else {
                "refused"
            };
            write!(f, "{name}({}, {sqlstate})", name_of(stmt))
        }
        Cond::By { symptom, cause } => {
            let name = SYMPTOMS
                .iter()
                .find(|(_, s)| s == symptom)
                .map_or("?", |(n, _)| *n);
            write!(f, "{name}(")?;
            write_cause(f, *cause)?;
            f.write_str(")")
        }
    }
}

fn write_cause(f: &mut fmt::Formatter<'_>, c: CauseMatch) -> fmt::Result {
    let (word, kind, step) = match c {
        CauseMatch::Kill(k, s) => ("kill", k, s),
        CauseMatch::Ran(k, s) => ("ran", k, s),
        plain => {
            let name = PLAIN_CAUSES.iter().find(|(_, p)| *p == plain);
            return f.write_str(name.map_or("?", |(n, _)| *n));
        }
    };
    write!(f, "{word}({}", name_of(&kind))?;
    if let Some(s) = step {
        write!(f, ", {}", name_of(&s))?;
    }
    f.write_str(")")
}
