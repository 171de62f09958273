//! Counted nouns and lists in what people read: "1 skill", "2 skills", "a, b and c".

use std::fmt;

/// `n` and a noun, with `s` added unless `n` is 1 (every noun counted in the reports takes it).
pub(crate) struct Count<'a>(pub usize, pub &'a str);

impl fmt::Display for Count<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = if self.0 == 1 { "" } else { "s" };
        write!(f, "{} {}{s}", self.0, self.1)
    }
}

/// `items` as a sentence lists them: `a`, `a and b`, `a, b and c`.
pub(crate) fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::{Count, and_list};

    #[test]
    fn lists_read_as_a_sentence() {
        assert_eq!(and_list(&[]), "");
        assert_eq!(and_list(&["a"]), "a");
        assert_eq!(and_list(&["a", "b"]), "a and b");
        assert_eq!(and_list(&["a", "b", "c"]), "a, b and c");
    }

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        let said: Vec<String> = [0, 1, 2, 11]
            .into_iter()
            .map(|n| Count(n, "skill").to_string())
            .collect();
        assert_eq!(said, ["0 skills", "1 skill", "2 skills", "11 skills"]);
    }
}
