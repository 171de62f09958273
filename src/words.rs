//! Counted nouns in what people read: "1 skill", "2 skills", "0 infos".

use std::fmt;

/// `n` and a noun, with `s` added unless `n` is 1 (every noun counted in the reports takes it).
pub(crate) struct Count<'a>(pub usize, pub &'a str);

impl fmt::Display for Count<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = if self.0 == 1 { "" } else { "s" };
        write!(f, "{} {}{s}", self.0, self.1)
    }
}

#[cfg(test)]
mod tests {
    use super::Count;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        let said: Vec<String> = [0, 1, 2, 11]
            .into_iter()
            .map(|n| Count(n, "skill").to_string())
            .collect();
        assert_eq!(said, ["0 skills", "1 skill", "2 skills", "11 skills"]);
    }
}
