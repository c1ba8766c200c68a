//! Uzbek in Cyrillic (`uz-Cyrl`), made from the Uzbek (Latin) texts by the standard
//! Latin → Cyrillic rules at run time, so it can never drift from `i18n/uz.json`: o' → ў,
//! g' → ғ, sh → ш, ch → ч, yo/yu/ya → ё/ю/я, ye → е, e → э at a word's start and after a
//! vowel, the tutuq belgisi (') → ъ, s'h → сҳ. What the rules cannot know is in
//! `i18n/uz-Cyrl.exceptions.txt`: words written otherwise in Cyrillic (ts → ц in
//! loanwords, -ksiya → -кция, ь), and words kept in Latin (names, terms, code).
//! Placeholders, SQL, identifiers and product names are left as they are.

/// The exceptions file, compiled in (a few hundred bytes).
const EXCEPTIONS: &str = include_str!("../../i18n/uz-Cyrl.exceptions.txt");

/// The suffixes a Latin term may carry and still be that term (`outbox` + `ga`); the term
/// stays Latin, the suffix is written in Cyrillic.
const SUFFIXES: [&str; 23] = [
    "", "ga", "da", "dan", "ni", "ning", "i", "si", "siz", "lar", "larga", "larda", "lardan",
    "larni", "larning", "dagi", "gacha", "ini", "ining", "lari", "larini", "larining", "dir",
];

/// The exceptions file, read: Latin prefixes written otherwise in Cyrillic, and terms kept.
pub(crate) struct Exceptions {
    /// (Latin prefix, lower case; its Cyrillic), longest first.
    spelled: Vec<(String, String)>,
    /// Terms kept in Latin, lower case.
    pub(crate) kept: Vec<String>,
    /// Table names kept in Latin after an SQL word (`INSERT vazifalar`), where the same
    /// word in a sentence is Uzbek (100 vazifa).
    pub(crate) tables: Vec<String>,
}

pub(crate) fn exceptions() -> &'static Exceptions {
    static READ: std::sync::OnceLock<Exceptions> = std::sync::OnceLock::new();
    READ.get_or_init(|| read_exceptions(EXCEPTIONS))
}

/// `latin = кирилл` lines and `keep term` lines; `#` starts a comment.
fn read_exceptions(text: &str) -> Exceptions {
    let mut spelled = Vec::new();
    let mut kept = Vec::new();
    let mut tables = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(term) = line.strip_prefix("keep ") {
            kept.push(term.trim().to_lowercase());
        } else if let Some(table) = line.strip_prefix("table ") {
            tables.push(table.trim().to_string());
        } else if let Some((latin, cyrillic)) = line.split_once(" = ") {
            spelled.push((latin.trim().to_lowercase(), cyrillic.trim().to_string()));
        }
    }
    spelled.sort_by_key(|(latin, _)| std::cmp::Reverse(latin.chars().count()));
    Exceptions {
        spelled,
        kept,
        tables,
    }
}

/// `text` (Uzbek in Latin) in Cyrillic.
pub fn to_cyrillic(text: &str) -> String {
    let ex = exceptions();
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() * 2);
    let mut i = 0;
    let mut after_sql_word = false;
    while i < chars.len() {
        let c = chars[i];
        if c == '{' {
            // A placeholder, as it is.
            let end = chars[i..]
                .iter()
                .position(|&c| c == '}')
                .map_or(chars.len(), |p| i + p + 1);
            out.extend(&chars[i..end]);
            i = end;
        } else if starts_url(&chars[i..]) {
            let end = chars[i..]
                .iter()
                .position(|c| c.is_whitespace())
                .map_or(chars.len(), |p| i + p);
            out.extend(&chars[i..end]);
            i = end;
        } else if c.is_ascii_alphanumeric() || c == '_' {
            let end = word_end(&chars, i);
            let word: String = chars[i..end].iter().collect();
            // A function call (`count(*)`, `now()`) is code; `ish(lar)` is not.
            let call = chars.get(end) == Some(&'(')
                && word.is_ascii()
                && matches!(chars.get(end + 1), Some('*' | ')'));
            if call || is_key_letter(&word, &chars[end..]) {
                out.push_str(&word);
            } else {
                out.push_str(&word_in_cyrillic(&word, after_sql_word, ex));
            }
            after_sql_word = is_sql_word(&word);
            i = end;
        } else {
            if !c.is_whitespace() {
                after_sql_word = false;
            }
            out.push(c);
            i += 1;
        }
    }
    out
}

/// A lone Latin letter is a key (`k`, `R`), a range's end (`a–z`) or code (`i % 10`),
/// except the Uzbek words «u» and «i» (after a Latin term: `COMMIT i`).
fn is_key_letter(word: &str, after: &[char]) -> bool {
    let mut letters = word.chars();
    let (Some(c), None) = (letters.next(), letters.next()) else {
        return false;
    };
    let code_follows = after.iter().find(|c| !c.is_whitespace()) == Some(&'%');
    match c {
        'u' | 'U' => false,
        'i' => code_follows,
        _ => c.is_ascii_alphabetic(),
    }
}

fn starts_url(chars: &[char]) -> bool {
    let head: String = chars.iter().take(8).collect();
    head.starts_with("http://") || head.starts_with("https://")
}

fn is_apostrophe(c: char) -> bool {
    matches!(c, '\'' | '’' | 'ʻ' | 'ʼ' | '‘' | '`')
}

/// Where the word starting at `start` ends: letters, digits and `_`, joined by `.`, `-`
/// or an apostrophe when a letter or digit follows.
fn word_end(chars: &[char], start: usize) -> usize {
    let mut i = start;
    while i < chars.len() {
        let c = chars[i];
        let next_is_word = chars
            .get(i + 1)
            .is_some_and(|n| n.is_alphanumeric() || *n == '_');
        if c.is_alphanumeric()
            || c == '_'
            || ((c == '.' || c == '-' || is_apostrophe(c)) && next_is_word)
        {
            i += 1;
        } else {
            break;
        }
    }
    i
}

/// SQL's words before a table or column name (`INSERT vazifalar`, `FROM outbox`).
fn is_sql_word(word: &str) -> bool {
    matches!(
        word,
        "INSERT" | "INTO" | "FROM" | "UPDATE" | "TABLE" | "JOIN"
    )
}

/// A word written in code, not in Uzbek: an identifier, a number, SQL, an abbreviation.
fn is_code(word: &str) -> bool {
    let letters: Vec<char> = word.chars().filter(|c| c.is_alphabetic()).collect();
    let camel = word
        .chars()
        .zip(word.chars().skip(1))
        .any(|(a, b)| a.is_lowercase() && b.is_uppercase());
    let all_caps = letters.len() >= 2
        && letters.iter().all(|c| c.is_uppercase())
        && !word.chars().any(is_apostrophe);
    word.contains('_')
        || word.contains('.')
        || word.chars().any(|c| c.is_ascii_digit())
        || camel
        || all_caps
        // An event's or a process's number: `h-3`, `h-N`, `api-1`.
        || word.split_once('-').is_some_and(|(head, _)| head.chars().count() == 1)
}

/// One word in Cyrillic: kept if it is code or a kept term (its Uzbek suffix written in
/// Cyrillic), spelled by an exception, else by the rules.
fn word_in_cyrillic(word: &str, after_sql_word: bool, ex: &Exceptions) -> String {
    if after_sql_word && ex.tables.iter().any(|t| t == word) {
        return word.to_string();
    }
    // A number with an Uzbek ending: `3-hodisa`, `2-mashq`.
    let digits = word.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 && word[digits..].starts_with('-') && word.len() > digits + 1 {
        let rest = &word[digits + 1..];
        return format!("{}-{}", &word[..digits], word_in_cyrillic(rest, false, ex));
    }
    // A Latin term with an Uzbek suffix after an apostrophe: `API'da`, `outbox'ga`.
    if let Some((stem, apostrophe, suffix)) = split_suffix(word) {
        if is_code(stem) || is_kept(stem, ex) {
            return format!("{stem}{apostrophe}{}", rules(suffix, false));
        }
    }
    if is_code(word) {
        return word.to_string();
    }
    let lower = word.to_lowercase();
    for term in &ex.kept {
        if let Some(rest) = lower.strip_prefix(term.as_str()) {
            if SUFFIXES.contains(&rest) {
                let suffix = after_chars(word, term);
                let stem = &word[..word.len() - suffix.len()];
                return format!("{stem}{}", rules(suffix, false));
            }
        }
    }
    for (latin, cyrillic) in &ex.spelled {
        if lower.starts_with(latin.as_str()) {
            let first_upper = word.chars().next().is_some_and(char::is_uppercase);
            let head = if first_upper {
                capitalised(cyrillic)
            } else {
                cyrillic.clone()
            };
            return head + &rules(after_chars(word, latin), ends_in_vowel(cyrillic));
        }
    }
    rules(word, true)
}

/// What follows the first `prefix.chars().count()` characters of `word`.
fn after_chars<'a>(word: &'a str, prefix: &str) -> &'a str {
    let n = prefix.chars().count();
    word.char_indices().nth(n).map_or("", |(at, _)| &word[at..])
}

/// `stem'suffix` where the apostrophe is not the one of o' or g'.
fn split_suffix(word: &str) -> Option<(&str, char, &str)> {
    let mut prev: Option<char> = None;
    for (at, c) in word.char_indices() {
        if is_apostrophe(c) && !matches!(prev, Some('o' | 'O' | 'g' | 'G')) && at > 0 {
            return Some((&word[..at], c, &word[at + c.len_utf8()..]));
        }
        prev = Some(c);
    }
    None
}

fn is_kept(stem: &str, ex: &Exceptions) -> bool {
    let lower = stem.to_lowercase();
    ex.kept.contains(&lower)
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

fn ends_in_vowel(cyrillic: &str) -> bool {
    cyrillic
        .chars()
        .last()
        .is_some_and(|c| "аеёиоуўэюяАЕЁИОУЎЭЮЯ".contains(c))
}

/// The standard rules over one word, or the rest of one after an exception; `e_first`
/// says whether an `e` at its start is `э` (it begins the word, or follows a vowel).
fn rules(word: &str, e_first: bool) -> String {
    let chars: Vec<char> = word.chars().collect();
    let mut out = String::with_capacity(word.len() * 2);
    let (mut i, mut e_is_e) = (0, e_first);
    while i < chars.len() {
        let (cyrillic, used, vowel) = unit(&chars[i..], e_is_e);
        out.push_str(&cyrillic);
        i += used;
        e_is_e = vowel;
    }
    out
}

/// The Cyrillic of the Latin letter (or digraph) that starts `rest`: its text, how many
/// characters it took, and whether it is a vowel. `e_is_e` says an `e` here is `э`.
fn unit(rest: &[char], e_is_e: bool) -> (String, usize, bool) {
    let c = rest[0];
    let lower = |i: usize| rest.get(i).map(|c| c.to_lowercase().next().unwrap_or(*c));
    let apostrophe_at = |i: usize| rest.get(i).is_some_and(|&n| is_apostrophe(n));
    // The unit's case is its first letter's: `Sh` and `SH` are both `Ш`.
    let case = |s: &str, n: usize| -> (String, usize, bool) {
        let vowel = "аеёиоуўэюя".contains(s);
        let text = if c.is_uppercase() {
            s.to_uppercase()
        } else {
            s.to_string()
        };
        (text, n, vowel)
    };
    match (lower(0).unwrap_or(c), lower(1)) {
        // s'h: the apostrophe only keeps s and h apart (Is'hoq → Исҳоқ).
        ('s', _) if apostrophe_at(1) && lower(2) == Some('h') => {
            let h = if rest[2].is_uppercase() { "Ҳ" } else { "ҳ" };
            (case("с", 1).0 + h, 3, false)
        }
        ('o', _) if apostrophe_at(1) => case("ў", 2),
        ('g', _) if apostrophe_at(1) => case("ғ", 2),
        ('s', Some('h')) => case("ш", 2),
        ('c', Some('h')) => case("ч", 2),
        // yo'q is й + ў, not ё.
        ('y', Some('o')) if !apostrophe_at(2) => case("ё", 2),
        ('y', Some('u')) => case("ю", 2),
        ('y', Some('a')) => case("я", 2),
        ('y', Some('e')) => case("е", 2),
        ('e', _) => case(if e_is_e { "э" } else { "е" }, 1),
        _ if is_apostrophe(c) => ("ъ".to_string(), 1, false),
        (l, _) => match letter(l) {
            Some(s) => case(s, 1),
            None => (c.to_string(), 1, false),
        },
    }
}

/// The Cyrillic of one Latin letter that makes no digraph.
fn letter(c: char) -> Option<&'static str> {
    Some(match c {
        'a' => "а",
        'b' => "б",
        'c' => "с",
        'd' => "д",
        'f' => "ф",
        'g' => "г",
        'h' => "ҳ",
        'i' => "и",
        'j' => "ж",
        'k' => "к",
        'l' => "л",
        'm' => "м",
        'n' => "н",
        'o' => "о",
        'p' => "п",
        'q' => "қ",
        'r' => "р",
        's' => "с",
        't' => "т",
        'u' => "у",
        'v' => "в",
        'w' => "в",
        'x' => "х",
        'y' => "й",
        'z' => "з",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::to_cyrillic as c;

    #[test]
    fn the_standard_letters_and_digraphs() {
        assert_eq!(c("Shu choy"), "Шу чой");
        assert_eq!(c("o'zbek g'alaba"), "ўзбек ғалаба");
        assert_eq!(c("qo'shildi"), "қўшилди");
        assert_eq!(c("xato hodisa"), "хато ҳодиса");
        assert_eq!(c("jadval"), "жадвал");
    }

    /// o' and g' with every apostrophe a keyboard or a text editor writes.
    #[test]
    fn o_and_g_with_every_apostrophe() {
        for a in ['\'', '’', 'ʻ', 'ʼ', '‘', '`'] {
            assert_eq!(c(&format!("o{a}lim g{a}oya")), "ўлим ғоя", "{a}");
        }
        assert_eq!(c("O'LDIRILDI"), "ЎЛДИРИЛДИ");
        assert_eq!(c("YO'QOLDI"), "ЙЎҚОЛДИ");
    }

    /// The tutuq belgisi is ъ, except in s'h, where it only keeps s and h apart.
    #[test]
    fn the_tutuq_belgisi_and_s_h() {
        assert_eq!(c("mas'ul"), "масъул");
        assert_eq!(c("ma'lumot"), "маълумот");
        assert_eq!(c("ta'sir"), "таъсир");
        assert_eq!(c("Is'hoq"), "Исҳоқ");
        assert_eq!(c("mash'al"), "машъал");
    }

    /// yo/yu/ya/ye, and e → э at a word's start and after a vowel.
    #[test]
    fn y_and_e_at_a_words_start() {
        assert_eq!(c("yordam yuborish yaxshi"), "ёрдам юбориш яхши");
        assert_eq!(c("yetkazildi Yetkazish"), "етказилди Етказиш");
        assert_eq!(c("yo'q yo'l"), "йўқ йўл");
        assert_eq!(c("eslatma keyin"), "эслатма кейин");
        assert_eq!(c("Endi"), "Энди");
        assert_eq!(c("poeziya"), "поэзия");
    }

    /// The exceptions file: ts → ц and -ksiya → -кция in loanwords, a suffix after them.
    #[test]
    fn the_exceptions_file() {
        assert_eq!(c("tsikli"), "цикли");
        assert_eq!(c("tranzaksiyada"), "транзакцияда");
        assert_eq!(c("Ssenariy"), "Сценарий");
        assert_eq!(c("funksiyasi"), "функцияси");
    }

    /// Code, SQL, names and placeholders stay as they are; an Uzbek suffix on a Latin term
    /// is written in Cyrillic.
    #[test]
    fn code_and_terms_stay_latin() {
        assert_eq!(c("{n} ta hodisa"), "{n} та ҳодиса");
        assert_eq!(
            c("SELECT … FOR UPDATE SKIP LOCKED"),
            "SELECT … FOR UPDATE SKIP LOCKED"
        );
        assert_eq!(c("INSERT vazifalar"), "INSERT vazifalar");
        assert_eq!(c("100 vazifa"), "100 вазифа");
        assert_eq!(c("outbox'ga yozadi"), "outbox'га ёзади");
        assert_eq!(c("workerlar"), "workerлар");
        assert_eq!(c("API'da COMMIT'dan"), "API'да COMMIT'дан");
        assert_eq!(
            c("hodisa_id, jobId, pool.query"),
            "hodisa_id, jobId, pool.query"
        );
        assert_eq!(c("i % 10 == 3 bo'lganda"), "i % 10 == 3 бўлганда");
        assert_eq!(c("3-hodisa, h-{n}"), "3-ҳодиса, h-{n}");
        assert_eq!(c("Hodisa raqami (h-N)"), "Ҳодиса рақами (h-N)");
        assert_eq!(c("k: o'ldirish; u keladi"), "k: ўлдириш; у келади");
        assert_eq!(
            c("https://microservices.io/x ga"),
            "https://microservices.io/x га"
        );
    }
}
